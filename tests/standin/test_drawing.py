"""The stand-in draws its views (revit_standin.drawing) and exports them (Document.ExportImage).

Pictures are compared by pixels at known places, never by eye: each wall's midpoint is mapped to
the picture through the drawing's own transform (Picture.to_pixel), where a drawn pixel must be;
outside the building the picture is background. Renders are small (a few hundred pixels) to keep
the suite fast."""
from __future__ import annotations

import os

import pytest

from Autodesk.Revit.DB import (BuiltInCategory, BuiltInParameter, Color, ElementId, ExportRange, FillPatternElement,
                               FillPatternTarget, FilteredElementCollector, FitDirectionType, ImageExportOptions,
                               ImageFileType, Line, OverrideGraphicSettings, Transaction, View, Wall, XYZ, ZoomFitType)
from Autodesk.Revit.Exceptions import ArgumentException, FileNotFoundException
from revit_standin import drawing
from section_walls import all_beyond, crosses, parallel_within
from System.Collections.Generic import List

SIZE = 400
WHITE = (255, 255, 255)


def _pixels(path):
    from matplotlib.image import imread
    image = imread(path)
    return (image[:, :, :3] * 255).round().astype(int)


def _view(doc, name):
    return next(v for v in FilteredElementCollector(doc).OfClass(View) if v.Name == name and not v.IsTemplate)


def _walls(doc, view):
    level = view._state["level_id"]
    return [w for w in FilteredElementCollector(doc).OfClass(Wall) if w._state.get("level_id") == level]


def _near(pixels, col, row, radius=1):
    """The pixels within ``radius`` of (col, row)."""
    c, r = int(col), int(row)
    return [tuple(pixels[y, x]) for y in range(max(r - radius, 0), min(r + radius + 1, pixels.shape[0]))
            for x in range(max(c - radius, 0), min(c + radius + 1, pixels.shape[1]))]


def _ids(ids):
    found = List[ElementId]()
    for element_id in ids:
        found.Add(element_id)
    return found


def _dark(rgb) -> bool:
    return sum(rgb) < 400


def _wall_midpoint(wall):
    return wall.Location.Curve.Evaluate(0.5, True)


def _count(pixels, predicate) -> int:
    return int(predicate(pixels).sum())


def _red(p):
    return (p[:, :, 0] > 200) & (p[:, :, 1] < 70) & (p[:, :, 2] < 70)


def _red_overrides(doc, *, projection=True, cut=True, patterns=True):
    """Red lines (projection, cut or both) and, with ``patterns``, red surface and cut patterns with
    the document's "<Solid fill>"; the pattern colours are set either way."""
    red = Color(255, 0, 0)
    settings = OverrideGraphicSettings()
    solid = FillPatternElement.GetFillPatternElementByName(doc, FillPatternTarget.Drafting, "<Solid fill>")
    if projection:
        settings.SetProjectionLineColor(red).SetSurfaceForegroundPatternColor(red)
        if patterns:
            settings.SetSurfaceForegroundPatternId(solid.Id)
    if cut:
        settings.SetCutLineColor(red).SetCutForegroundPatternColor(red)
        if patterns:
            settings.SetCutForegroundPatternId(solid.Id)
    return settings


def _override(doc, view, elements, settings):
    with Transaction(doc, "override") as t:
        t.Start()
        for element in elements:
            view.SetElementOverrides(element.Id, settings)
        t.Commit()


@pytest.fixture
def plan(duplex_rw):
    return duplex_rw, _view(duplex_rw, "Level 1")


def test_the_walls_of_level_1_are_drawn_where_they_are_and_nothing_outside_the_building(plan, tmp_path):
    doc, view = plan
    picture = drawing.draw(view, str(tmp_path / "plan.png"), pixel_size=SIZE)
    pixels = _pixels(picture.path)
    assert pixels.shape[1] == SIZE and pixels.shape[0] == picture.height
    walls = _walls(doc, view)
    assert len(walls) > 10
    # dark pixels (the wall's fill and edges) at a quarter, half or three quarters along every wall:
    # a door's gap may sit on one of them
    drawn = [w for w in walls if any(_dark(p) for at in (0.25, 0.5, 0.75)
                                     for p in _near(pixels, *picture.to_pixel(w.Location.Curve.Evaluate(at, True))))]
    assert drawn == walls
    # the picture's corners, outside the building's walls: background
    for col, row in ((2, 2), (SIZE - 3, 2), (2, picture.height - 3), (SIZE - 3, picture.height - 3)):
        assert tuple(pixels[row, col]) == WHITE
    rooms = [e for e in FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Rooms)
             if e._state.get("level_id") == view._state["level_id"]]
    assert {w.Id.Value for w in walls} <= set(picture.drawn) and rooms and {r.Id.Value for r in rooms} <= set(picture.drawn)
    doors = [e for e in FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Doors).WhereElementIsNotElementType()
             if e._state.get("level_id") == view._state["level_id"]]
    assert doors and {d.Id.Value for d in doors} <= set(picture.drawn)
    other_level = {w.Id.Value for w in FilteredElementCollector(doc).OfClass(Wall)} - {w.Id.Value for w in walls}
    assert not other_level & set(picture.drawn)        # a plan draws its own level's elements only


def test_isolating_the_doors_leaves_no_wall_in_the_picture(plan, tmp_path):
    doc, view = plan
    doors = [e.Id for e in FilteredElementCollector(doc, view.Id).OfCategory(BuiltInCategory.OST_Doors)]
    view.IsolateElementsTemporary(_ids(doors))
    picture = drawing.draw(view, str(tmp_path / "doors.png"), pixel_size=SIZE)
    assert set(picture.drawn) == {d.Value for d in doors}
    pixels = _pixels(picture.path)
    # the walls' midpoints are out of the picture's frame or background: no wall is drawn
    for wall in _walls(doc, view):
        col, row = picture.to_pixel(_wall_midpoint(wall))
        if 0 <= col < picture.width and 0 <= row < picture.height:
            near_door = any(abs(col - c) < 12 and abs(row - r) < 12
                            for c, r in (picture.to_pixel(doc.GetElement(d).Location.Point) for d in doors))
            if not near_door:
                assert set(_near(pixels, col, row, 0)) == {WHITE}


def test_colouring_walls_red_shows_red_where_they_are_and_hiding_a_category_removes_it(plan, tmp_path):
    doc, view = plan
    before = _count(_pixels(drawing.draw(view, str(tmp_path / "a.png"), pixel_size=SIZE).path), _red)
    walls = _walls(doc, view)[:5]
    _override(doc, view, walls, _red_overrides(doc))
    picture = drawing.draw(view, str(tmp_path / "b.png"), pixel_size=SIZE)
    pixels = _pixels(picture.path)
    assert before == 0 and _count(pixels, _red) > 50
    for wall in walls:
        assert any(p[0] > 200 and p[1] < 70 for at in (0.25, 0.5, 0.75)
                   for p in _near(pixels, *picture.to_pixel(wall.Location.Curve.Evaluate(at, True)), radius=2))
    with Transaction(doc, "hide walls") as t:
        t.Start()
        view.SetCategoryHidden(ElementId(BuiltInCategory.OST_Walls), True)
        t.Commit()
    assert view.GetCategoryHidden(ElementId(BuiltInCategory.OST_Walls))
    hidden = drawing.draw(view, str(tmp_path / "c.png"), pixel_size=SIZE)
    assert not {w.Id.Value for w in _walls(doc, view)} & set(hidden.drawn)
    assert _count(_pixels(hidden.path), _red) == 0


def test_a_wall_the_plan_cuts_shows_its_cut_colours_not_its_projection_colours(plan, tmp_path):
    """Level 1's walls rise through the plan's cut plane: Revit draws them cut, with their cut lines
    and cut pattern; a projection colour does not show on them, and a pattern colour shows only
    with a fill pattern set."""
    doc, view = plan
    walls = _walls(doc, view)[:5]

    def red_after(settings, name):
        _override(doc, view, walls, settings)
        picture = drawing.draw(view, str(tmp_path / name), pixel_size=SIZE)
        return _count(_pixels(picture.path), _red)
    projection_only = red_after(_red_overrides(doc, cut=False), "projection.png")
    lines_only = red_after(_red_overrides(doc, projection=False, patterns=False), "cut_lines.png")
    filled = red_after(_red_overrides(doc, projection=False), "cut_filled.png")
    assert projection_only == 0
    assert 0 < lines_only < filled                   # the outline only: the pattern colour needs a pattern
    assert filled > 50


def test_a_low_wall_below_the_cut_plane_shows_its_projection_colours(plan, tmp_path):
    """A wall whose top is below the plan's cut plane (and below 6 ft) is seen from above:
    Revit draws it in projection, so its projection colours show and its cut colours do not."""
    doc, view = plan
    level = doc.GetElement(ElementId(view._state["level_id"]))
    with Transaction(doc, "a low wall") as t:
        t.Start()
        low = Wall.Create(doc, Line.CreateBound(XYZ(60, 0, level.Elevation), XYZ(80, 0, level.Elevation)),
                          doc.GetDefaultElementTypeId(_wall_type_group()), level.Id, 3.0, 0.0, False, False)
        t.Commit()
    _override(doc, view, [low], _red_overrides(doc, projection=False))
    assert _count(_pixels(drawing.draw(view, str(tmp_path / "cut.png"), pixel_size=SIZE).path), _red) == 0
    _override(doc, view, [low], _red_overrides(doc, cut=False))
    assert _count(_pixels(drawing.draw(view, str(tmp_path / "projection.png"), pixel_size=SIZE).path), _red) > 20


def _wall_type_group():
    from Autodesk.Revit.DB import ElementTypeGroup
    return ElementTypeGroup.WallType


def test_the_highlight_colours_the_working_set(plan, tmp_path):
    doc, view = plan
    wall = _walls(doc, view)[0]
    picture = drawing.draw(view, str(tmp_path / "h.png"), pixel_size=SIZE, highlight=[wall.Id])
    pixels = _pixels(picture.path)
    orange = (pixels[:, :, 0] > 240) & (abs(pixels[:, :, 1] - 140) < 20) & (pixels[:, :, 2] < 30)
    assert int(orange.sum()) > 10


def test_the_same_view_gives_the_same_bytes(duplex, tmp_path):
    view = _view(duplex, "Level 1")
    one = drawing.draw(view, str(tmp_path / "1.png"), pixel_size=SIZE)
    two = drawing.draw(view, str(tmp_path / "2.png"), pixel_size=SIZE)
    assert (tmp_path / "1.png").read_bytes() == (tmp_path / "2.png").read_bytes()
    assert one.bounds == two.bounds


def test_a_crop_box_frames_the_picture(plan, tmp_path):
    doc, view = plan
    box = view.CropBox
    assert box.Max.X > box.Min.X     # the default: the level's extent
    middle_x = (box.Min.X + box.Max.X) / 2
    box.Max = type(box.Max)(middle_x, box.Max.Y, box.Max.Z)
    with Transaction(doc, "crop") as t:
        t.Start()
        view.CropBox = box
        view.CropBoxActive = True
        t.Commit()
    picture = drawing.draw(view, str(tmp_path / "crop.png"), pixel_size=SIZE)
    assert picture.bounds[2] == pytest.approx(middle_x, abs=0.1)     # to the picture's last pixel
    assert picture.bounds[0] == pytest.approx(box.Min.X, abs=0.1)


def test_sections_and_3d_views_draw_and_schedules_cannot(duplex, tmp_path):
    three_d = _view(duplex, "{3D}")
    picture = drawing.draw(three_d, str(tmp_path / "3d.png"), pixel_size=300)
    assert len(picture.drawn) > 100 and _count(_pixels(picture.path), lambda p: p.sum(axis=2) < 600) > 1000


# -- Document.ExportImage ------------------------------------------------------------------------------------

def _options(folder, *ids):
    options = ImageExportOptions()
    options.ExportRange = ExportRange.SetOfViews
    options.FilePath = str(folder) + os.sep
    options.ZoomType = ZoomFitType.FitToPage
    options.PixelSize = 256
    options.HLRandWFViewsFileType = ImageFileType.PNG
    options.SetViewsAndSheets(_ids(ids))
    return options


def test_export_image_writes_the_file_get_file_name_names(duplex, tmp_path):
    view = _view(duplex, "Level 1")
    assert ImageExportOptions().PixelSize == 512
    duplex.ExportImage(_options(tmp_path, view.Id))
    name = ImageExportOptions.GetFileName(duplex, view.Id)
    assert name == "Floor Plan - Level 1"
    assert sorted(os.listdir(tmp_path)) == [name + ".png"]
    assert _pixels(tmp_path / (name + ".png")).shape[1] == 256
    options = _options(tmp_path, view.Id)
    options.FitDirection = FitDirectionType.Vertical
    options.ExportRange = ExportRange.CurrentView      # the active view, at FilePath with its extension
    options.FilePath = str(tmp_path / "current")
    duplex.ExportImage(options)
    assert (tmp_path / "current.png").is_file()


def test_export_image_refuses_what_has_no_picture(duplex_rw, tmp_path):
    doc = duplex_rw
    with pytest.raises(ArgumentException):
        ImageExportOptions().PixelSize = 15_001
    with pytest.raises(ArgumentException):
        ImageExportOptions().PixelSize = 0
    template = next(v for v in FilteredElementCollector(doc).OfClass(View) if v.IsTemplate)
    with pytest.raises(ArgumentException, match="view template"):
        doc.ExportImage(_options(tmp_path, template.Id))
    from Autodesk.Revit.DB import ViewSchedule
    with Transaction(doc, "schedule") as t:
        t.Start()
        schedule = ViewSchedule.CreateSchedule(doc, ElementId(BuiltInCategory.OST_Doors))
        t.Commit()
    with pytest.raises(ArgumentException, match="schedule"):
        doc.ExportImage(_options(tmp_path, schedule.Id))
    view_id = _view(doc, "Level 2").Id
    with Transaction(doc, "delete") as t:
        t.Start()
        doc.Delete(view_id)
        t.Commit()
    with pytest.raises(ArgumentException, match="does not exist"):
        doc.ExportImage(_options(tmp_path, view_id))
    with pytest.raises(FileNotFoundException):
        doc.ExportImage(_options(tmp_path / "missing", _view(doc, "Level 1").Id))
    assert os.listdir(tmp_path) == []


# -- a section, through Document.ExportImage ----------------------------------------------------------------

def test_a_section_draws_the_walls_it_cuts_where_they_are_and_nothing_beyond_its_depth(duplex_rw, tmp_path):
    from revit_standin.sections import cut_section
    doc = duplex_rw
    with Transaction(doc, "section") as t:
        t.Start()
        section = cut_section(doc, (-5, -29), (35, -29), depth=3)   # across the duplex, looking south
        t.Commit()
    doc.ExportImage(_options(tmp_path, section.Id))
    written = tmp_path / (ImageExportOptions.GetFileName(doc, section.Id) + ".png")
    picture = drawing.draw(section, str(tmp_path / "mapping.png"), pixel_size=256)   # the same drawing, mapped
    assert written.read_bytes() == (tmp_path / "mapping.png").read_bytes()
    pixels = _pixels(written)
    walls = list(FilteredElementCollector(doc).OfClass(Wall))
    cut = [w for w in walls if crosses(w, -29)]
    beyond = [w for w in walls if all_beyond(w, -29, 10)]
    assert len(cut) >= 4 and beyond
    assert {w.Id.Value for w in cut} <= set(picture.drawn) and not {w.Id.Value for w in beyond} & set(picture.drawn)
    for wall in cut:   # drawn pixels where the wall meets the section plane, at half its height
        a, b = wall.Location.Curve.GetEndPoint(0), wall.Location.Curve.GetEndPoint(1)
        x = a.X + (b.X - a.X) * (-29 - a.Y) / (b.Y - a.Y)
        middle = (x, -29, a.Z + wall.get_Parameter(BuiltInParameter.WALL_USER_HEIGHT_PARAM).AsDouble() / 2)
        assert any(p != WHITE for p in _near(pixels, *picture.to_pixel(middle), radius=2)), wall.Id.Value
    for col, row in ((2, 2), (picture.width - 3, 2)):   # the top corners, above the building: background
        assert tuple(pixels[row, col]) == WHITE
    left, right = picture.to_pixel((-4, -29, 0))[0], picture.to_pixel((34, -29, 0))[0]
    assert 0 < left < right < picture.width        # the section's ends inside the picture, left to right


def test_a_section_draws_the_walls_it_cuts_with_their_cut_colours_and_those_beyond_with_their_projection_colours(
        duplex_rw, tmp_path):
    from revit_standin.sections import cut_section
    doc = duplex_rw
    with Transaction(doc, "section") as t:
        t.Start()
        section = cut_section(doc, (-5, -29), (35, -29), depth=12)
        t.Commit()
    walls = list(FilteredElementCollector(doc).OfClass(Wall))
    cut = [w for w in walls if crosses(w, -29)]
    beyond = [w for w in walls if not crosses(w, -29) and parallel_within(w, -29, 1.0, 12)]
    assert cut and beyond

    def red_after(elements, settings, name):
        _override(doc, section, elements, settings)
        picture = drawing.draw(section, str(tmp_path / name), pixel_size=256)
        return _count(_pixels(picture.path), _red)
    assert red_after(cut, _red_overrides(doc, cut=False), "cut_projection.png") == 0
    assert red_after(cut, _red_overrides(doc, projection=False), "cut_cut.png") > 20
    _override(doc, section, cut, OverrideGraphicSettings())
    assert red_after(beyond, _red_overrides(doc, projection=False), "beyond_cut.png") == 0
    assert red_after(beyond, _red_overrides(doc, cut=False), "beyond_projection.png") > 20


def test_export_image_runs_with_or_without_an_open_transaction_and_draws_its_uncommitted_changes(duplex_rw, tmp_path):
    doc = duplex_rw
    view = _view(doc, "Level 1")
    (tmp_path / "outside").mkdir()
    (tmp_path / "inside").mkdir()
    doc.ExportImage(_options(tmp_path / "outside", view.Id))
    red = _red_overrides(doc)
    with Transaction(doc, "highlight for the picture only") as t:
        t.Start()
        for wall in _walls(doc, view)[:5]:
            view.SetElementOverrides(wall.Id, red)
        doc.Regenerate()
        doc.ExportImage(_options(tmp_path / "inside", view.Id))
        t.RollBack()
    name = ImageExportOptions.GetFileName(doc, view.Id) + ".png"
    outside, inside = (_pixels(tmp_path / folder / name) for folder in ("outside", "inside"))
    assert _count(outside, _red) == 0 and _count(inside, _red) > 50


# -- curtain walls (issue 36, item 19) ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def sample_house():
    from revit_standin.host import RevitHost
    try:
        return RevitHost().open("SampleHouse4")
    except FileNotFoundError:
        pytest.skip("SampleHouse4 is not in ../shared/models (or PARACORE_MODELS)")


def _distance_to_segment(point, curve) -> float:
    a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
    dx, dy = b.X - a.X, b.Y - a.Y
    t = max(0.0, min(1.0, ((point.X - a.X) * dx + (point.Y - a.Y) * dy) / (dx * dx + dy * dy)))
    return ((point.X - a.X - t * dx) ** 2 + (point.Y - a.Y - t * dy) ** 2) ** 0.5


def test_the_sample_house_plan_draws_its_glazed_walls_along_their_panels(sample_house, tmp_path):
    """Before: SampleHouse4's two curtain walls (IfcCurtainWall: no shape of their own, only the
    panels and mullions aggregated into them) had no location line, so the Ground Floor plan drew
    only their mullions' and panels' small marks: a house open on two sides."""
    from Autodesk.Revit.DB import LocationCurve
    doc, view = sample_house, _view(sample_house, "Ground Floor")
    curtain = [e for e in FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Walls)
               .WhereElementIsNotElementType() if not isinstance(e, Wall)]
    assert len(curtain) == 2
    panels = [e for e in FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_CurtainWallPanels)
              .WhereElementIsNotElementType()]
    assert panels
    for wall in curtain:
        # a location line, as Revit's curtain walls have, along the panels it holds
        assert isinstance(wall.Location, LocationCurve) and wall.Location.Curve.Length > 5
    mullions = [e for e in FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_CurtainWallMullions)
                .WhereElementIsNotElementType()]
    assert mullions
    # its panels and mullions stand on it (Revit 2015 placed most mullions at the project origin, their
    # geometry in the project's coordinates: they are where their shape is)
    assert all(min(_distance_to_segment(p.Location.Point, w.Location.Curve) for w in curtain) < 1.0
               for p in panels + mullions)
    picture = drawing.draw(view, str(tmp_path / "plan.png"), pixel_size=SIZE)
    assert {w.Id.Value for w in curtain} <= set(picture.drawn)
    pixels = _pixels(picture.path)
    for wall in curtain:
        for at in (0.2, 0.4, 0.6, 0.8):   # its glazing line, not only the mullions' marks at its ends
            assert any(_dark(p) for p in _near(pixels, *picture.to_pixel(wall.Location.Curve.Evaluate(at, True)))), (
                wall.Id.Value, at)
