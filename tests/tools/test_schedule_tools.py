"""Schedule tools on the stand-in duplex model, through the executor. Every check re-reads the
schedule from the model: its definition (fields, sort, filters) and the rows Revit computes
(TableView.GetCellText), compared with the doors in the model."""
from __future__ import annotations

from collections import Counter

import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, ArgumentOutOfRangeException
from duplex_revit import DuplexRevit
from paracore.tools.elements import quantity_tools  # noqa: F401 - registers get_quantities
from paracore.tools.framework.registry import default_registry
from revit_standin import faults

DOORS = DB.BuiltInCategory.OST_Doors
SCENARIO = [("create_schedule", {"category": "Doors", "name": "Door Schedule",
                                 "fields": ["Level", "Family and Type", "Mark"]}),
            ("sort_schedule", {"schedule": "Door Schedule", "field": "Level"})]


@pytest.fixture
def revit():
    revit = DuplexRevit()
    yield revit
    revit.close()


@pytest.fixture
def door_schedule(revit):
    """ "Create a door schedule sorted by level with family and type and mark" (one agent step)."""
    outcomes = revit.step(*SCENARIO)
    assert [o.is_error for o in outcomes] == [False, False], [o.content for o in outcomes]
    return outcomes


def schedule(revit, name: str = "Door Schedule"):
    return revit.call(lambda: next(s for s in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewSchedule)
                                   if s.Name == name))


def definition(revit, name: str = "Door Schedule") -> dict:
    """The schedule's definition, re-read from the model."""
    found = schedule(revit, name)

    def read():
        d = found.Definition
        fields = [d.GetField(i) for i in range(d.GetFieldCount())]
        sorts = [d.GetSortGroupField(i) for i in range(d.GetSortGroupFieldCount())]
        filters = [d.GetFilter(i) for i in range(d.GetFilterCount())]
        return {"fields": [f.GetName() for f in fields],
                "sort": [(d.GetField(s.FieldId).GetName(), s.SortOrder.ToString()) for s in sorts],
                "filters": [(d.GetField(f.FieldId).GetName(), f.FilterType.ToString()) for f in filters]}
    return revit.call(read)


def table(revit, name: str = "Door Schedule") -> tuple[list[str], list[list[str]]]:
    """(headings, rows) of the schedule's body, read cell by cell with TableView.GetCellText."""
    found = schedule(revit, name)

    def read():
        body = found.GetTableData().GetSectionData(DB.SectionType.Body)
        cells = [[found.GetCellText(DB.SectionType.Body, r, c) for c in range(body.NumberOfColumns)]
                 for r in range(body.NumberOfRows)]
        return cells[0], cells[1:]
    return revit.call(read)


def model_doors(revit) -> list[tuple[str, str, str, float]]:
    """(level, "Family: Type", mark, head height) of every door, read from the elements."""
    def read():
        rows = []
        for door in DB.FilteredElementCollector(revit.doc).OfCategory(DOORS).WhereElementIsNotElementType():
            symbol = door.Symbol
            rows.append((revit.doc.GetElement(door.LevelId).Name, f"{symbol.FamilyName}: {symbol.Name}",
                         door.LookupParameter("Mark").AsString(),
                         door.get_Parameter(DB.BuiltInParameter.INSTANCE_HEAD_HEIGHT_PARAM).AsDouble()))
        return rows
    return revit.call(read)


# --- declarations ---------------------------------------------------------------------------------


def test_schedule_tools_write_and_leave_the_working_set_alone():
    for name in ("create_schedule", "add_schedule_field", "sort_schedule", "filter_schedule"):
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy, spec.needs_approval) == (True, "none", False), name
        assert spec.describe is not None


# --- the scenario ---------------------------------------------------------------------------------


def test_a_door_schedule_sorted_by_level_with_family_and_type_and_mark(revit, door_schedule):
    assert definition(revit) == {"fields": ["Level", "Family and Type", "Mark"],
                                 "sort": [("Level", "Ascending")], "filters": []}
    headings, rows = table(revit)
    assert headings == ["Level", "Family and Type", "Mark"]
    expected = [(level, family_type, mark) for level, family_type, mark, _ in model_doors(revit)]
    assert Counter(map(tuple, rows)) == Counter(expected)      # one row per door, values as displayed
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)  # sorted by level
    create, sort = door_schedule
    schedule_id = revit.call(lambda: schedule(revit).Id.Value)
    assert create.content.startswith(f"Created the schedule. Schedule 'Door Schedule' (id {schedule_id}, Doors).\n"
                                     "Fields (columns, in order): Level, Family and Type, Mark.\n"
                                     f"It shows {len(expected)} rows; the first 10:\n"
                                     "Level | Family and Type | Mark\n")
    lines = sort.content.splitlines()
    assert lines[2] == "Sorted by Level (ascending)."
    assert lines[5:15] == [" | ".join(r) for r in rows[:10]]
    assert lines[-1] == "Open it with activate_view."
    assert revit.session.working_set.ids == ()
    assert revit.undo_names() == ["Agent step"]  # the whole step is one undo entry


def test_read_schedule_pages_every_row_of_a_schedule_and_changes_nothing(revit, door_schedule):
    """Issue 37, item 5: a schedule's rows were shown only after a change (the first ten); read_schedule
    reads them all, a page at a time, without writing."""
    spec = default_registry().get("read_schedule")
    assert (spec.writes, spec.working_set_policy) == (False, "none")
    headings, rows = table(revit)
    assert len(rows) > 10
    undo = revit.undo_names()
    first = revit.text("read_schedule", {"schedule": "Door Schedule"})
    lines = first.splitlines()
    assert lines[0].startswith("Schedule 'Door Schedule' (id ") and lines[2] == "Sorted by Level (ascending)."
    assert f"It shows {len(rows)} rows; the first 10:" in first
    assert lines[4:15] == [" | ".join(headings)] + [" | ".join(r) for r in rows[:10]]
    assert f"- … {len(rows) - 10} more rows: call again with offset 10." in first
    second = revit.text("read_schedule", {"schedule": "Door Schedule", "offset": 10})
    assert f"It shows {len(rows)} rows — items 11–{len(rows)} of {len(rows)}:" in second
    assert [" | ".join(r) for r in rows[10:]] == [line for line in second.splitlines()
                                                   if line in {" | ".join(r) for r in rows[10:]}]
    assert "more rows" not in second
    past = revit.error("read_schedule", {"schedule": "Door Schedule", "offset": len(rows)})
    assert "past the end" in past and f"offset below {len(rows)}" in past
    assert "No schedule" in revit.error("read_schedule", {"schedule": "Dor Schedule"})
    assert revit.undo_names() == undo and revit.session.working_set.ids == ()


def test_rows_past_the_shown_ones_are_counted_even_when_their_first_cell_is_blank(revit):
    """describe_schedule reads a row past the first ten only up to its first cell that is not blank
    (schedule_tools.counted_rows): a row whose first column is empty still counts."""
    from paracore.tools.schedules.schedule_tools import SHOWN_ROWS, counted_rows, schedule_rows
    [created] = revit.step(("create_schedule", {"category": "Doors", "name": "Comments first",
                                                "fields": ["Comments", "Mark"]}))
    headings, rows = table(revit, "Comments first")
    assert len(rows) > SHOWN_ROWS and all(r[0] == "" and r[1] for r in rows)   # every first cell blank
    found = schedule(revit, "Comments first")
    whole_headings, whole_rows, truncated = revit.call(lambda: schedule_rows(found))
    assert (whole_headings, whole_rows, truncated) == (headings, rows, False)
    assert revit.call(lambda: counted_rows(found, SHOWN_ROWS)) == (headings, rows[:SHOWN_ROWS], len(rows), False)
    assert f"It shows {len(rows)} rows; the first 10:" in created.content


def test_field_names_ignore_case_and_spacing(revit):
    revit.text("create_schedule", {"category": "door", "fields": ["  family   and type", "MARK"]})
    assert definition(revit, "Doors Schedule")["fields"] == ["Family and Type", "Mark"]


def test_an_unknown_field_lists_close_names_and_creates_nothing(revit):
    message = revit.error("create_schedule", {"category": "Doors", "fields": ["Level", "Famly and Type"]})
    assert message.startswith("Schedule 'Doors Schedule' has no field named 'Famly and Type'. "
                              "Did you mean 'Family and Type'")
    assert "Fields: Comments, Mark, Type, Family, Family and Type, " in message  # instance fields first
    assert revit.of_class(DB.ViewSchedule) == [] and revit.undo_names() == []


def test_an_unknown_category_or_a_name_in_use_is_refused(revit):
    message = revit.error("create_schedule", {"category": "Dors"})
    assert message.startswith("No category named 'Dors'. Did you mean 'Doors'?")
    revit.text("create_schedule", {"category": "Doors", "name": "Door Schedule"})
    message = revit.error("create_schedule", {"category": "Windows", "name": "Door Schedule"})
    assert message.startswith("A schedule named 'Door Schedule' already exists")
    assert len(revit.of_class(DB.ViewSchedule)) == 1


def test_create_schedule_with_no_fields(revit):
    text = revit.text("create_schedule", {"category": "Windows"})
    assert "Fields: none yet (add them with add_schedule_field)." in text
    assert definition(revit, "Windows Schedule")["fields"] == []


# --- add_schedule_field -----------------------------------------------------------------------------


def test_add_schedule_field_appends_a_column(revit, door_schedule):
    schedule_id = revit.call(lambda: schedule(revit).Id.Value)
    text = revit.text("add_schedule_field", {"schedule": str(schedule_id), "field": "head height"})
    assert text.startswith("Added the field 'Head Height'.")
    assert definition(revit)["fields"] == ["Level", "Family and Type", "Mark", "Head Height"]
    headings, rows = table(revit)
    assert headings[-1] == "Head Height" and all(r[-1].endswith(" m") for r in rows)


def test_add_schedule_field_refuses_a_field_already_there_and_unknown_schedules(revit, door_schedule):
    assert revit.error("add_schedule_field", {"schedule": "Door Schedule", "field": "mark"}) == \
        "'Mark' is already a column of schedule 'Door Schedule'; nothing was added."
    message = revit.error("add_schedule_field", {"schedule": "Window Schedule", "field": "Mark"})
    assert message == "No schedule named 'Window Schedule'. Did you mean 'Door Schedule'? Schedules: Door Schedule."


def test_no_schedule_yet(revit):
    message = revit.error("sort_schedule", {"schedule": "Door Schedule", "field": "Mark"})
    assert message == ("No schedule named 'Door Schedule': the project has no schedules yet. "
                       "Create one with create_schedule.")


def test_a_field_that_revit_rolls_back_changes_nothing(revit, door_schedule):
    before = definition(revit)
    faults.fail_next_commit(revit.doc)
    assert revit.error("add_schedule_field", {"schedule": "Door Schedule", "field": "Comments"}).startswith(
        "Revit rolled the change back")
    assert definition(revit) == before


# --- sort_schedule ------------------------------------------------------------------------------------


def test_sort_by_a_second_key_descending(revit, door_schedule):
    text = revit.text("sort_schedule", {"schedule": "Door Schedule", "field": "Mark", "descending": True})
    assert "Sorted by Level (ascending), then Mark (descending)." in text
    _, rows = table(revit)
    assert rows == sorted(sorted(rows, key=lambda r: r[2], reverse=True), key=lambda r: r[0])


def test_sorting_again_by_the_same_field_changes_its_order_in_place(revit, door_schedule):
    revit.text("sort_schedule", {"schedule": "Door Schedule", "field": "Mark"})
    revit.text("sort_schedule", {"schedule": "Door Schedule", "field": "Level", "descending": True})
    assert definition(revit)["sort"] == [("Level", "Descending"), ("Mark", "Ascending")]
    _, rows = table(revit)
    assert rows[0][0] == "Level 2" and rows[-1][0] == "Level 1"


def test_sorting_by_a_field_that_is_not_a_column_says_how_to_add_it(revit, door_schedule):
    message = revit.error("sort_schedule", {"schedule": "Door Schedule", "field": "comments"})
    assert message == ("'Comments' is not a column of schedule 'Door Schedule' (its fields: 'Level', "
                       "'Family and Type', 'Mark'). Revit can only sort by a field that is in the schedule: "
                       "call add_schedule_field with field 'Comments' first, then sort by again.")
    assert revit.error("sort_schedule", {"schedule": "Door Schedule", "field": "Colour"}).startswith(
        "Schedule 'Door Schedule' has no field named 'Colour'.")
    assert definition(revit)["sort"] == [("Level", "Ascending")]


# --- filter_schedule ----------------------------------------------------------------------------------


def test_filter_by_level_name(revit, door_schedule):
    text = revit.text("filter_schedule", {"schedule": "Door Schedule", "field": "Level", "op": "=",
                                          "value": "level 2"})
    assert "Filters: Level = 'Level 2'." in text
    _, rows = table(revit)
    on_level_2 = [d for d in model_doors(revit) if d[0] == "Level 2"]
    assert len(rows) == len(on_level_2) > 0 and {r[0] for r in rows} == {"Level 2"}
    assert f"It shows {len(on_level_2)} rows" in text


def test_filters_add_up_text_and_lengths(revit, door_schedule):
    revit.text("add_schedule_field", {"schedule": "Door Schedule", "field": "Head Height"})
    revit.text("filter_schedule", {"schedule": "Door Schedule", "field": "Mark", "op": "contains", "value": "a"})
    text = revit.text("filter_schedule", {"schedule": "Door Schedule", "field": "Head Height", "op": ">",
                                          "value": "2.1 m"})
    assert "Filters: Mark contains 'a'; Head Height > 2.1 m." in text
    expected = [d for d in model_doors(revit) if "a" in d[2].casefold() and d[3] > 2.1 / 0.3048]
    _, rows = table(revit)
    assert sorted(r[2] for r in rows) == sorted(d[2] for d in expected) and expected
    assert definition(revit)["filters"] == [("Mark", "Contains"), ("Head Height", "GreaterThan")]


def test_a_filter_nothing_passes_says_so(revit, door_schedule):
    text = revit.text("filter_schedule", {"schedule": "Door Schedule", "field": "Mark", "op": "=", "value": "Z999"})
    assert "It shows no rows: no element passes the filters." in text
    assert table(revit)[1] == []


def test_bad_filters_are_refused_with_what_to_do(revit, door_schedule):
    assert revit.error("filter_schedule", {"schedule": "Door Schedule", "field": "Level", "op": "contains",
                                           "value": "1"}).startswith("'contains' works on text fields only")
    message = revit.error("filter_schedule", {"schedule": "Door Schedule", "field": "Level", "op": "=",
                                              "value": "Level 7"})
    assert message.startswith("No level called 'Level 7' is used in schedule 'Door Schedule'. Values: 'Level 1'")
    assert "is not a column of schedule 'Door Schedule'" in revit.error(
        "filter_schedule", {"schedule": "Door Schedule", "field": "Comments", "op": "=", "value": "x"})
    assert "op" in revit.call_error("filter_schedule", {"schedule": "Door Schedule", "field": "Mark", "op": "like",
                                                       "value": "A"})
    assert definition(revit)["filters"] == []


# --- the stand-in's table (TableView.GetCellText, GetTableData) ------------------------------------------


def test_the_table_has_a_title_header_and_a_body(revit, door_schedule):
    found = schedule(revit)

    def read():
        data = found.GetTableData()
        header = data.GetSectionData(DB.SectionType.Header)
        return (data.NumberOfSections, header.NumberOfRows, found.GetCellText(DB.SectionType.Header, 0, 0),
                data.GetSectionData(DB.SectionType.Summary), found.IsValidSectionType(DB.SectionType.Footer))
    assert revit.call(read) == (2, 1, "Door Schedule", None, False)
    with pytest.raises(ArgumentException):
        revit.call(lambda: found.GetCellText(DB.SectionType.Footer, 0, 0))
    with pytest.raises(ArgumentOutOfRangeException):
        revit.call(lambda: found.GetCellText(DB.SectionType.Body, 0, 3))


def test_the_table_follows_the_model(revit, door_schedule):
    doors = revit.ids(DOORS)

    def set_mark():
        transaction = DB.Transaction(revit.doc, "Mark")
        transaction.Start()
        revit.doc.GetElement(DB.ElementId(doors[0])).LookupParameter("Mark").Set("ZZ-1")
        transaction.Commit()
    revit.call(set_mark)
    assert "ZZ-1" in [r[2] for r in table(revit)[1]]


# --- read-back: a schedule change Revit did not make as asked is an error, nothing changes ------------


def test_a_filter_revit_stores_with_another_value_is_an_error(revit, door_schedule, monkeypatch):
    before = definition(revit)
    real = DB.ScheduleDefinition.AddFilter

    def add_rounded(self, schedule_filter):   # Revit rounding a length filter to the display precision
        real(self, DB.ScheduleFilter(schedule_filter.FieldId, schedule_filter.FilterType,
                                     round(schedule_filter.GetDoubleValue(), 1)))
    monkeypatch.setattr(DB.ScheduleDefinition, "AddFilter", add_rounded)
    revit.text("add_schedule_field", {"schedule": "Door Schedule", "field": "Head Height"})
    message = revit.error("filter_schedule", {"schedule": "Door Schedule", "field": "Head Height", "op": ">",
                                              "value": "2.1 m"})
    assert message.startswith("Filtering schedule 'Door Schedule': Revit did not do what was asked.")
    assert "last filter: asked 'Head Height' > 6.88976378, Revit has 'Head Height' > 6.9" in message
    assert "Nothing was changed" in message
    assert definition(revit)["filters"] == before["filters"] == []


def test_a_field_revit_does_not_add_is_an_error(revit, door_schedule, monkeypatch):
    before = definition(revit)
    monkeypatch.setattr(DB.ScheduleDefinition, "AddField", lambda self, *args: None)
    message = revit.error("add_schedule_field", {"schedule": "Door Schedule", "field": "Comments"})
    assert "fields: asked 'Level', 'Family and Type', 'Mark', 'Comments', Revit has 'Level', 'Family and Type', " \
           "'Mark'" in message
    assert definition(revit) == before


# --- totals of the numeric columns (issue 37, item 1) ------------------------------------------------------


def test_a_wall_schedule_gives_the_totals_of_its_numeric_columns_over_every_row(revit):
    outcome = revit.run("create_schedule", {"category": "Walls", "name": "Wall Quantities",
                                            "fields": ["Family and Type", "Area", "Volume", "Mark"]})
    assert not outcome.is_error, outcome.content
    headings, rows = table(revit, "Wall Quantities")
    expected = {column: sum(float(row[headings.index(column)].split()[0]) for row in rows)
                for column in ("Area", "Volume")}
    line = next(line for line in outcome.content.splitlines() if line.startswith("Totals"))
    assert line == (f"Totals of the {len(rows)} rows (the values shown, added up): "
                    f"Area {expected['Area']:,.2f} m² · Volume {expected['Volume']:,.2f} m³.")
    # The takeoff's total (604.63 m²) adds the unrounded areas: within half a hundredth per row of it.
    walls = revit.text("get_quantities", {"category": "Walls", "quantity": "Area"})
    takeoff = float(walls.split('sum ')[1].split(' m²')[0].replace(",", ""))
    assert abs(takeoff - expected["Area"]) <= 0.005 * len(rows)


def test_a_schedule_without_numbers_gives_no_totals(revit, door_schedule):
    assert not any(line.startswith("Totals") for o in door_schedule for line in o.content.splitlines())


def test_a_schedule_created_with_totals_shows_revits_grand_total_row(revit):
    outcome = revit.run("create_schedule", {"category": "Walls", "name": "Wall Totals", "totals": True,
                                            "fields": ["Family and Type", "Area", "Volume"]})
    assert not outcome.is_error, outcome.content
    found = schedule(revit, "Wall Totals")

    def read():
        d = found.Definition
        return (d.ShowGrandTotal, d.ShowGrandTotalTitle, d.ShowGrandTotalCount,
                [d.GetField(i).DisplayType.ToString() for i in range(d.GetFieldCount())])
    assert revit.call(read) == (True, True, True, ["Standard", "Totals", "Totals"])
    headings, rows = table(revit, "Wall Totals")
    assert rows[-1][0] == "Grand total: 57"
    lines = outcome.content.splitlines()
    assert "It shows 57 rows; the first 10:" in lines               # the grand total row is not a row of walls
    assert f"Grand total row (Revit's totals): Grand total: 57 | {rows[-1][1]} | {rows[-1][2]}" in lines
    assert not any(line.startswith("Totals of the") for line in lines)
    walls = revit.text("get_quantities", {"category": "Walls", "quantity": "Area"})
    assert rows[-1][1] == walls.split("sum ")[1].split(" (")[0]      # 604.63 m², as the takeoff adds up


def test_add_schedule_field_with_totals_totals_that_field(revit, door_schedule):
    error = revit.error("add_schedule_field", {"schedule": "Door Schedule", "field": "Comments", "totals": True})
    assert "'Comments' does not add up" in error
    assert definition(revit)["fields"] == ["Level", "Family and Type", "Mark"]     # rolled back
    outcome = revit.run("add_schedule_field", {"schedule": "Door Schedule", "field": "Count", "totals": True})
    assert not outcome.is_error, outcome.content
    assert "Grand total row (Revit's totals): Grand total: 14 | | | 14" in outcome.content.splitlines()


@pytest.mark.parametrize("first", [["Area", "Number"], ["Area"]], ids=["area first", "area alone"])
def test_a_totaled_first_column_keeps_its_total_in_the_grand_total_row(revit, first):
    """Issue 37 trials: a room schedule created with totals whose first field is Area showed the grand
    total row as "Grand total: 21": the title and count take the first cell (as they do in Revit), so
    the 21 rooms' area total was nowhere. With the first column totaled, the row gives its total (the
    count is the rows the result counts)."""
    revit.run("create_schedule", {"category": "Rooms", "name": "Room Areas", "totals": True})
    for field in first:
        outcome = revit.run("add_schedule_field", {"schedule": "Room Areas", "field": field, "totals": field == "Area"})
        assert not outcome.is_error, outcome.content
    rooms = revit.call(lambda: [r.Area for r in DB.FilteredElementCollector(revit.doc)
                                .OfCategory(DB.BuiltInCategory.OST_Rooms).WhereElementIsNotElementType()])
    expected = f"{sum(rooms) * 0.3048 ** 2:.2f} m²"                  # 422.05 m²
    headings, rows = table(revit, "Room Areas")
    assert rows[-1][0] == expected, rows[-1]
    lines = outcome.content.splitlines()
    assert "It shows 21 rows; the first 10:" in lines
    assert next(line for line in lines if line.startswith("Grand total row")).startswith(
        f"Grand total row (Revit's totals): {expected}"), outcome.content


def test_a_filter_on_an_area_is_said_in_the_projects_area_unit(revit):
    """Issue 37 trials: filter_schedule(Area > 20) on a room schedule of a metric project read back
    "Filters: Area > 215.278.": the square feet Revit stores, without a unit. The rooms kept are those
    over 20 m², read here."""
    revit.run("create_schedule", {"category": "Rooms", "name": "Big Rooms", "fields": ["Number", "Area"]})
    text = revit.text("filter_schedule", {"schedule": "Big Rooms", "field": "Area", "op": ">", "value": 20})
    assert "Filters: Area > 20.00 m²." in text, text
    big = revit.call(lambda: sorted(r.Number for r in DB.FilteredElementCollector(revit.doc)
                                    .OfCategory(DB.BuiltInCategory.OST_Rooms).WhereElementIsNotElementType()
                                    if r.Area * 0.3048 ** 2 > 20))
    _, rows = table(revit, "Big Rooms")
    assert sorted(row[0] for row in rows) == big and len(big) == 7
