"""The families toolset on the duplex, run as the agent runs it (one step through the executor), every
outcome re-read from the model: list_family_types, place_family_instances (level-based, wall-hosted,
ceiling-hosted, face-based, line-based, relative to the working set), the refusals that change
nothing, and the hosts a colleague holds on a workshared model."""
from __future__ import annotations

import math
import re
from pathlib import Path

from Autodesk.Revit import DB
from paracore.hosts.revit.executor import run_batch
from paracore.hosts.standin.sandbox import Sandbox
from paracore.tools.families import list_tools, load_tools, place_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import default_registry
from tool_harness import M, bridge, describe, doc, element, host, model_count, read, run, run1, session  # noqa: F401

LEVEL_2_CEILINGS = [236, 237, 238, 239, 240, 241, 242, 243]
LEVEL_2_WALL = 86
DOWNLIGHT = "M_Downlight - Recessed Can: 150mm Dia - 230V"
BASIN = "M_Lavatory-Wall Mounted: 0560 x 0430mm"
FLAT_LIGHT = "M_Ceiling Light - Flat Round: 60W - 230V"
LINE_BASED = "M_Generic Model Line Based: Default"


def placed_ids(outcome) -> list[int]:
    assert not outcome.is_error, outcome.content
    return [int(i) for i in re.search(r"Ids: ([\d, ]+)\.", outcome.content)[1].split(", ")]


def instance_facts(doc, value: int) -> dict:
    instance = element(doc, value)
    location = instance.Location
    host = instance.Host
    facts = {"type": f"{instance.Symbol.FamilyName}: {instance.Symbol.Name}",
             "level": doc.GetElement(instance.LevelId).Name,
             "host": host.Id.Value if host is not None and not isinstance(host, DB.Level) else None}
    if isinstance(location, DB.LocationPoint):
        facts.update(point=(location.Point.X, location.Point.Y, location.Point.Z), rotation=location.Rotation)
    else:
        facts["line"] = tuple((p.X, p.Y, p.Z) for p in (location.Curve.GetEndPoint(0), location.Curve.GetEndPoint(1)))
    return facts


def close(a, b, tolerance=1e-6) -> bool:
    flat = (lambda v: [x for item in v for x in (item if isinstance(item, tuple) else (item,))])
    return len(flat(a)) == len(flat(b)) and all(abs(x - y) <= tolerance for x, y in zip(flat(a), flat(b)))


# --- list_family_types -------------------------------------------------------------------------------------------

def test_the_listing_names_each_type_with_its_category_and_how_it_is_placed(run1):
    outcome = run1("list_family_types", {})
    assert not outcome.is_error
    shown = len(outcome.content.splitlines()) - 2     # the header and the next page's hint
    # (the duplex's, the library's four, and Autodesk's isolated footing: its own footings are wall foundations)
    assert outcome.content.startswith("31 family type(s) of 21 families:\n")
    assert f"more family types: call again with offset {shown}." in outcome.content
    rest = run1("list_family_types", {"offset": shown})
    assert not rest.is_error and rest.content.startswith(f"31 family type(s) of 21 families — items {shown + 1}–31")
    both = outcome.content + rest.content
    assert "- M_Sofa: 1830mm (type id 58): Furniture, level-based; 4 placed" in both
    assert f"- {DOWNLIGHT} (type id 2000000104): Lighting Fixtures, ceiling-hosted; 0 placed, not active yet" in both
    assert "Stair" not in both and "A1 metric" not in both     # not placed by this tool


def test_the_listing_filters_by_category_name_and_kind(run1):
    by_kind = run1("list_family_types", {"kind": "wall-hosted", "category": "plumbing fixture"})
    assert by_kind.content.splitlines() == [
        "1 family type(s) of 1 family (category 'plumbing fixture', wall-hosted):",
        f"- {BASIN} (type id 2000000102): Plumbing Fixtures, wall-hosted; 0 placed, not active yet"]
    by_name = run1("list_family_types", {"name": "flat round"})
    assert by_name.content.splitlines()[1].startswith(f"- {FLAT_LIGHT} (type id 2000000106): Lighting Fixtures, "
                                                      "face-based")
    none = run1("list_family_types", {"category": "Sprinklers"})
    assert none.is_error and none.content.startswith("No family type matches (category 'Sprinklers'). The model's "
                                                     "placeable family types are in: ")


# --- level-based --------------------------------------------------------------------------------------------------

def test_furniture_is_placed_on_level_2_at_the_points_given_and_read_back_there(run1, read, session):
    outcome = run1("place_family_instances", {"family_type": "M_Sofa", "level": "Level 2",
                                              "points": [["2 m", "-3 m"], ["5 m", "-4 m"]], "offset": "0.1 m",
                                              "rotation": 90})
    ids = placed_ids(outcome)
    assert list(session.working_set.ids) == ids
    facts = read(lambda d: [instance_facts(d, i) for i in ids])
    level_2 = read(lambda d: next(lv.Elevation for lv in DB.FilteredElementCollector(d).OfClass(DB.Level)
                                  if lv.Name == "Level 2"))
    assert [f["level"] for f in facts] == ["Level 2", "Level 2"] and [f["host"] for f in facts] == [None, None]
    assert close(facts[0]["point"], (2 * M, -3 * M, level_2 + 0.1 * M))
    assert close(facts[1]["point"], (5 * M, -4 * M, level_2 + 0.1 * M))
    assert all(math.isclose(f["rotation"], math.pi / 2) for f in facts)
    assert outcome.content.startswith(
        f"Placed 2 instance(s) of 'M_Sofa: 1830mm' (Furniture, level-based): {ids[0]} at (2 m, -3 m) on Level 2, "
        "0.1 m above it, facing 180°;")
    assert outcome.content.endswith("They are now the working set.")


def test_a_level_based_family_needs_a_level_and_takes_no_host(run1):
    outcome = run1("place_family_instances", {"family_type": "M_Sofa", "points": [[0, 0]]})
    assert outcome.is_error and outcome.content.startswith("Which level? Give level")
    outcome = run1("place_family_instances", {"family_type": "M_Sofa", "points": [[0, 0]], "host_id": LEVEL_2_WALL})
    assert outcome.is_error and "host_id is for hosted and face-based families" in outcome.content


# --- hosted ---------------------------------------------------------------------------------------------------------

def test_a_wall_hosted_family_placed_in_a_chosen_wall_reads_back_that_wall(run1, read):
    middle, out = read(lambda d: (element(d, LEVEL_2_WALL).Location.Curve.Evaluate(0.5, True),
                                  element(d, LEVEL_2_WALL).Orientation))
    beside = [(middle.X + 0.1 * out.X) * 0.3048, (middle.Y + 0.1 * out.Y) * 0.3048]   # 0.1 ft off its line
    outcome = run1("place_family_instances", {"family_type": BASIN, "host_id": LEVEL_2_WALL, "offset": "0.8 m",
                                              "points": [beside]})
    [basin] = placed_ids(outcome)
    facts = read(lambda d: instance_facts(d, basin))
    assert facts["host"] == LEVEL_2_WALL and facts["level"] == "Level 2"
    assert close(facts["point"][:2], (middle.X, middle.Y))          # on the wall's location line
    assert f"{basin} at (" in outcome.content and f"in wall {LEVEL_2_WALL} on Level 2, 0.8 m above it" in outcome.content
    assert read(lambda d: element(d, basin).Symbol.IsActive)        # the library type was activated


def test_a_wall_hosted_family_goes_in_the_wall_of_the_working_set(run, run1, read):
    run1("set_working_set", {"element_ids": [LEVEL_2_WALL]})
    outcome = run1("place_family_instances", {"family_type": BASIN, "at_working_set": True, "offset": "0.8 m"})
    [basin] = placed_ids(outcome)
    assert read(lambda d: instance_facts(d, basin))["host"] == LEVEL_2_WALL


def test_a_ceiling_hosted_family_at_the_centre_of_each_level_2_ceiling_reads_back_its_ceiling(run1, read, session):
    run1("set_working_set", {"element_ids": LEVEL_2_CEILINGS})
    outcome = run1("place_family_instances", {"family_type": DOWNLIGHT, "at_working_set": True})
    ids = placed_ids(outcome)
    assert len(ids) == 8 and set(session.working_set.ids) == set(ids)

    def expected(d):
        rows = []
        for value in LEVEL_2_CEILINGS:
            box = element(d, value).get_BoundingBox(None)
            rows.append((value, ((box.Min.X + box.Max.X) / 2, (box.Min.Y + box.Max.Y) / 2, box.Min.Z)))
        return rows

    facts = read(lambda d: [instance_facts(d, i) for i in ids])
    for fact, (ceiling, centre) in zip(facts, read(expected)):
        assert fact["host"] == ceiling and fact["level"] == "Level 2" and close(fact["point"], centre)
    assert outcome.content.startswith(f"Placed 8 instance(s) of '{DOWNLIGHT}' (Lighting Fixtures, ceiling-hosted): ")


def test_a_point_off_its_host_is_refused_and_nothing_changes(run1, read):
    before = read(model_count)
    for arguments in ({"family_type": DOWNLIGHT, "level": "Level 2", "points": [["2.2 m", "-3.5 m"], [100, 100]]},
                      {"family_type": DOWNLIGHT, "host_id": 236, "points": [[100, 100]]},
                      {"family_type": BASIN, "host_id": LEVEL_2_WALL, "points": [[100, 100]]}):
        outcome = run1("place_family_instances", arguments)
        assert outcome.is_error and outcome.content.endswith("Nothing was placed."), outcome.content
    assert "No ceiling of Level 2 is at point 1 (100 m, 100 m)" in run1(
        "place_family_instances", {"family_type": DOWNLIGHT, "level": "Level 2", "points": [[100, 100]]}).content
    assert read(model_count) == before
    assert not read(lambda d: element(d, 2000000104).IsActive)     # not even the type's activation stays


def test_revits_refusal_of_one_point_rolls_back_the_whole_call(run1, read):
    before = read(model_count)
    # the second point is inside ceiling 236's box but in the notch of its L-shaped outline
    outcome = run1("place_family_instances", {"family_type": DOWNLIGHT, "host_id": 236,
                                              "points": [["2.2 m", "-3.5 m"], ["1.2 m", "-6.4 m"]]})
    assert outcome.is_error
    assert outcome.content.startswith(f"Revit refused to place '{DOWNLIGHT}' at point 2 in ceiling 236: ")
    assert outcome.content.endswith("Nothing was placed.")
    assert read(model_count) == before


def test_a_host_of_the_wrong_kind_is_refused(run1):
    outcome = run1("place_family_instances", {"family_type": DOWNLIGHT, "host_id": LEVEL_2_WALL, "points": [[0, 0]]})
    assert outcome.is_error and outcome.content == (
        f"Element {LEVEL_2_WALL} is in Walls, not a ceiling: a ceiling-hosted family goes into a ceiling. Give the id "
        "of one.")


# --- face-based and line-based -----------------------------------------------------------------------------------

def test_a_face_based_family_goes_on_the_ceilings_underside_or_a_walls_side(run1, read):
    outcome = run1("place_family_instances", {"family_type": FLAT_LIGHT, "host_id": 236,
                                              "points": [["2.2 m", "-3.5 m"]], "level": "Level 2"})
    [light] = placed_ids(outcome)
    underside = read(lambda d: element(d, 236).get_BoundingBox(None).Min.Z)
    facts = read(lambda d: instance_facts(d, light))
    assert facts["host"] == 236 and close(facts["point"], (2.2 * M, -3.5 * M, underside))
    assert read(lambda d: element(d, light).HostFace is not None)
    middle, orientation, width = read(lambda d: (element(d, LEVEL_2_WALL).Location.Curve.Evaluate(0.5, True),
                                                 element(d, LEVEL_2_WALL).Orientation, element(d, LEVEL_2_WALL).Width))
    outcome = run1("place_family_instances", {"family_type": FLAT_LIGHT, "host_id": LEVEL_2_WALL, "offset": "2 m",
                                              "points": [[middle.X * 0.3048, middle.Y * 0.3048]]})
    [sconce] = placed_ids(outcome)
    facts = read(lambda d: instance_facts(d, sconce))
    face = (middle.X + orientation.X * width / 2, middle.Y + orientation.Y * width / 2)
    assert facts["host"] == LEVEL_2_WALL and close(facts["point"][:2], face)


def test_a_line_based_family_goes_along_its_lines(run1, read):
    outcome = run1("place_family_instances", {"family_type": LINE_BASED, "level": "Level 1",
                                              "lines": [[[0, 0], ["3 m", 0]], [[0, "1 m"], [0, "4 m"]]]})
    first, second = placed_ids(outcome)
    assert close(read(lambda d: instance_facts(d, first))["line"], ((0, 0, 0), (3 * M, 0, 0)))
    assert close(read(lambda d: instance_facts(d, second))["line"][1], (0, 4 * M, 0))
    outcome = run1("place_family_instances", {"family_type": LINE_BASED, "level": "Level 1", "points": [[0, 0]]})
    assert outcome.is_error and outcome.content.startswith("This family is line-based: give lines")


def test_doors_and_structural_framing_are_sent_to_their_own_tools(run1):
    door = run1("place_family_instances", {"family_type": "M_Single-Flush: 0864 x 2032mm", "points": [[0, 0]],
                                           "level": "Level 1"})
    assert door.is_error and "place it with place_doors_on_wall" in door.content
    beam = run1("place_family_instances", {"family_type": "M_W-Wide Flange", "points": [[0, 0]], "level": "Level 1"})
    assert beam.is_error and "structure tools" in beam.content
    footing = run1("place_family_instances", {"family_type": "M_Footing-Rectangular: 1800 x 1200 x 450mm", "points": [[0, 0]],
                                              "level": "Level 1"})
    assert footing.is_error and "is a structural footing type" in footing.content


def test_the_approval_says_what_and_where(describe):
    said = describe("place_family_instances", {"family_type": DOWNLIGHT, "level": "Level 2",
                                               "points": [["2.2 m", "-3.5 m"]]})
    assert said == f"Place 1 instance(s) of '{DOWNLIGHT}' (ceiling-hosted) in ceiling 236, activating the type first"


# --- worksharing -----------------------------------------------------------------------------------------------------

def test_on_a_workshared_model_a_ceiling_a_colleague_holds_is_named_and_left_out(documents):
    with Sandbox("duplex", workshared="maria:Ceilings:1@Level 2") as box:
        [held] = box.held
        box.on_main_thread(lambda: box.session.working_set.replace(LEVEL_2_CEILINGS))
        call = default_registry().prepare("place_family_instances",
                                          {"family_type": DOWNLIGHT, "at_working_set": True}, LEVEL_2_CEILINGS)
        [outcome] = box.bridge.call(lambda: run_batch(box.host.uiapp.ActiveUIDocument, box.session, "step",
                                                      [("c1", call)]), timeout=60)
        assert not outcome.is_error, outcome.content
        assert outcome.content.startswith(f"Placed 7 instance(s) of '{DOWNLIGHT}'")
        assert f"(id {held}, borrowed by maria)" in outcome.content
        hosts = box.on_main_thread(lambda: sorted(
            i.Host.Id.Value for i in DB.FilteredElementCollector(box.doc).OfCategory(
                DB.BuiltInCategory.OST_LightingFixtures).WhereElementIsNotElementType()))
        assert hosts == sorted(set(LEVEL_2_CEILINGS) - {held})


# --- load_family -------------------------------------------------------------------------------------------------------

def test_the_stand_in_refuses_to_read_an_rfa_and_says_what_it_has(run1, read, tmp_path):
    family_file = tmp_path / "M_Desk.rfa"
    family_file.write_bytes(b"not a real family")
    before = read(model_count)
    outcome = run1("load_family", {"path": str(family_file)})
    assert outcome.is_error
    assert outcome.content.startswith("Revit could not load 'M_Desk': The Revit stand-in cannot read .rfa files, so "
                                      "'M_Desk.rfa' was not loaded. It has the families of the model's own file loaded, "
                                      "and a library of one family of each placement: M_Lavatory-Wall Mounted, ")
    assert outcome.content.endswith("Nothing was loaded.") and read(model_count) == before


def test_load_family_checks_the_path_before_asking_revit(run1, tmp_path):
    assert run1("load_family", {"path": str(tmp_path / "M_Desk.rfa")}).content == (
        f"There is no file '{tmp_path / 'M_Desk.rfa'}'. Check the path (a family file, .rfa) and ask again.")
    assert run1("load_family", {"path": str(tmp_path)}).content == (
        f"The folder '{tmp_path}' holds no .rfa file. Give a family file or a folder of them.")
    for i in range(21):
        (tmp_path / f"F{i}.rfa").write_bytes(b"x")
    assert "holds 21 .rfa files; one call loads at most 20" in run1("load_family", {"path": str(tmp_path)}).content
    assert run1("load_family", {"path": str(tmp_path / "notes.txt")}).content.startswith("'")


def test_the_load_options_keep_or_overwrite_as_asked():
    from paracore.tools.families.load_tools import LoadOptions
    from Autodesk.Revit import DB
    options = LoadOptions()
    assert options.OnFamilyFound(True) == (False, False)            # keep: the loaded family stays
    options.overwrite = True
    assert options.OnFamilyFound(True) == (True, True)              # overwrite, parameter values too
    assert options.OnSharedFamilyFound(None, True) == (True, DB.FamilySource.Family, True)


def test_a_family_the_model_has_is_kept_when_asked(run1, read, tmp_path):
    family_file = tmp_path / "M_Sofa.rfa"
    family_file.write_bytes(b"not a real family")
    before = read(model_count)
    outcome = run1("load_family", {"path": str(tmp_path), "if_loaded": "keep"})
    assert not outcome.is_error, outcome.content
    assert outcome.content == ("'M_Sofa' (id 57): already loaded, kept as it was; Furniture, level-based; types: "
                               "1830mm. place_family_instances places them.")
    assert read(model_count) == before
    refused = run1("load_family", {"path": str(family_file), "if_loaded": "overwrite"})
    assert refused.is_error and "cannot read .rfa files" in refused.content


# --- the replay: the agent places furniture, a basin in a wall, a light in every ceiling, and is refused one off
#     its ceiling ------------------------------------------------------------------------------------------------------

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "families_duplex.json"


def test_the_families_replay_places_each_kind_and_reads_back_hosts_and_points(tmp_path, monkeypatch):
    from paracore.app.replay import run_replay
    from paracore.app.replay_file import load_replay
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))
    played = run_replay(load_replay(REPLAY), trace=False)
    assert [t.get("error") for t in played["turns"]] == [None, None, None, None]
    results = [r for turn in played["turns"] for r in turn["tool_results"]]
    assert [r["name"] for r in results] == ["use_toolset", "list_family_types", "place_family_instances",
                                            "list_family_types", "place_family_instances", "search_elements",
                                            "place_family_instances", "place_family_instances"]
    assert [r["is_error"] for r in results] == [False] * 7 + [True]
    sofas, basin, lights, refused = (results[i]["content"] for i in (2, 4, 6, 7))
    assert sofas.startswith("Placed 2 instance(s) of 'M_Sofa: 1830mm' (Furniture, level-based): ")
    assert " at (2 m, -3 m) on Level 2, 0 m above it, facing 180°; " in sofas and " at (5 m, -4 m) on Level 2" in sofas
    assert re.search(r"at \(4\.\d+ m, -8\.9 m\) in wall 86 on Level 2, 0\.8 m above it", basin), basin
    assert lights.startswith("Placed 8 instance(s) of 'M_Downlight - Recessed Can: 150mm Dia - 230V' "
                             "(Lighting Fixtures, ceiling-hosted): ")
    assert [int(c) for c in re.findall(r"in ceiling (\d+)", lights)] == LEVEL_2_CEILINGS[:8]
    assert refused == ("Not run: tried on the model and rolled back before asking the user, it would fail: No ceiling "
                       "of Level 2 is at point 1 (100 m, 100 m): a ceiling-hosted family needs its point on a ceiling. "
                       "Give points on one, or host_id. Nothing was placed. Nothing was changed.")


def test_one_instance_goes_at_the_point_of_each_room_of_the_working_set(run1, read):
    rooms = read(lambda d: [(r.Id.Value, (r.Location.Point.X, r.Location.Point.Y), d.GetElement(r.LevelId).Name)
                            for r in DB.FilteredElementCollector(d).OfCategory(DB.BuiltInCategory.OST_Rooms)
                            if d.GetElement(r.LevelId).Name == "Level 2"])
    assert len(rooms) >= 3
    run1("set_working_set", {"element_ids": [r for r, _, _ in rooms]})
    outcome = run1("place_family_instances", {"family_type": "M_Table-Coffee: 0610 x 0610 x 0610mm",
                                              "at_working_set": True})
    ids = placed_ids(outcome)
    facts = read(lambda d: [instance_facts(d, i) for i in ids])
    assert [(f["level"], f["host"]) for f in facts] == [("Level 2", None)] * len(rooms)
    assert all(close(f["point"][:2], xy) for f, (_, xy, _) in zip(facts, rooms))
    assert outcome.content.startswith(f"Placed {len(rooms)} instance(s) of 'M_Table-Coffee: 0610 x 0610 x 0610mm' "
                                      "(Furniture, level-based): ")


def test_a_face_based_family_goes_on_a_floors_top_face(run1, read):
    floor, centre, top = read(lambda d: next(
        (f.Id.Value, ((b.Min.X + b.Max.X) / 2, (b.Min.Y + b.Max.Y) / 2), b.Max.Z)
        for f in DB.FilteredElementCollector(d).OfClass(DB.Floor) if d.GetElement(f.LevelId).Name == "Level 2"
        for b in [f.get_BoundingBox(None)]))
    outcome = run1("place_family_instances", {"family_type": FLAT_LIGHT, "host_id": floor,
                                              "points": [[centre[0] * 0.3048, centre[1] * 0.3048]]})
    [light] = placed_ids(outcome)
    facts = read(lambda d: instance_facts(d, light))
    assert facts["host"] == floor and close(facts["point"], (*centre, top), 1e-5)
    assert f"in floor {floor} on Level 2" in outcome.content


def test_a_point_in_a_linked_models_wall_is_refused_naming_the_link(host, run1, read):
    """Revit hosts a wall-hosted family only in a wall of the model itself: a point inside a linked
    model's wall is refused, and the refusal says the wall there is the link's (not "no wall")."""
    from revit_standin import links as standin_links
    instance = host.call(lambda: standin_links.link_model(host.uiapp._active_document,
                                                         standin_links.parse_link("SampleHouse4@40,0")))
    middle = host.call(lambda: [(w.Id.Value, w.Location.Curve.Evaluate(0.5, True))
                                for w in DB.FilteredElementCollector(instance.GetLinkDocument()).OfClass(DB.Wall)][0])
    count = read(model_count)
    x, y = middle[1].X + 40 * M, middle[1].Y
    outcome = run1("place_family_instances", {"family_type": "M_Lavatory-Wall Mounted", "level": "Level 1",
                                              "points": [[f"{x} ft", f"{y} ft"]], "offset": "0.8 m"})
    assert outcome.is_error and "No wall of Level 1" in outcome.content
    assert f"wall {middle[0]} of the linked model 'SampleHouse4" in outcome.content, outcome.content
    assert read(model_count) == count


def test_the_load_approval_says_plainly_whether_a_family_in_the_model_is_overwritten(describe, tmp_path):
    """The user approves an overwrite of the firm's family in the model by this sentence: it must say so."""
    (tmp_path / "Desk.rfa").write_bytes(b"not read by the stand-in")
    said = describe("load_family", {"path": str(tmp_path / "Desk.rfa"), "if_loaded": "overwrite"})
    assert said == ("Load 1 family (Desk); a family of that name already in the model is overwritten, "
                    "with its parameter values"), said
    kept = describe("load_family", {"path": str(tmp_path / "Desk.rfa")})
    assert kept == "Load 1 family (Desk); a family of that name already in the model is kept as it is", kept


def test_a_working_set_element_deleted_since_is_named_as_left_out_not_silently_dropped(run1, read):
    """The user deletes a ceiling in Revit after finding them: "a light in each" places one per ceiling
    left and says which id of the working set is gone, so 7 of 8 is not mistaken for all."""
    assert 236 in LEVEL_2_CEILINGS and not run1("set_working_set", {"element_ids": LEVEL_2_CEILINGS}).is_error

    def delete_236(d):
        deleting = DB.Transaction(d, "Delete")
        deleting.Start()
        d.Delete(DB.ElementId(236))
        deleting.Commit()

    read(delete_236)
    outcome = run1("place_family_instances", {"family_type": DOWNLIGHT, "at_working_set": True})
    assert not outcome.is_error and outcome.content.startswith(f"Placed {len(LEVEL_2_CEILINGS) - 1} instance(s)"), outcome.content
    assert "1 element of the working set is no longer in the model (236) and got none" in outcome.content, outcome.content


def test_a_path_pasted_with_quotes_from_windows_copy_as_path_is_read(describe, tmp_path):
    """Windows Explorer's "Copy as path" wraps the path in double quotes; a user pastes it as is."""
    folder = tmp_path / "Firm Library" / "Mobilier été"
    folder.mkdir(parents=True)
    (folder / "Chaise Été.rfa").write_bytes(b"not read by the stand-in")
    said = describe("load_family", {"path": f'"{folder / "Chaise Été.rfa"}"'})
    assert said.startswith("Load 1 family (Chaise Été);"), said
    assert describe("load_family", {"path": f"  '{folder}'  "}).startswith("Load 1 family (Chaise Été);")
