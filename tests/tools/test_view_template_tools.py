"""View template and duplicate-view tools on the stand-in duplex and SampleHouse4, through the
executor. What each test checks is re-read from the model (ViewTemplateId, Scale, DetailLevel,
the new view), not taken from the tool's words."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException
from duplex_revit import DuplexRevit
from paracore.tools.views import view_template_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import default_registry


@pytest.fixture(params=["duplex", "SampleHouse4"])
def revit(request):
    revit = DuplexRevit(request.param)
    yield revit
    revit.close()


@pytest.fixture
def duplex():
    revit = DuplexRevit()
    yield revit
    revit.close()


def view_state(revit, name: str) -> tuple:
    """(template name or None, scale, detail level) of a view, read from the model."""
    view = revit.view(name)

    def read():
        template = revit.doc.GetElement(view.ViewTemplateId)
        return (template.Name if template is not None else None, view.Scale, view.DetailLevel.ToString())
    return revit.call(read)


def plan_names(revit) -> list[str]:
    return revit.call(lambda: [v.Name for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.ViewPlan)
                               if not v.IsTemplate])


# --- declarations -------------------------------------------------------------------------------------


def test_view_template_tools_are_declared_with_their_transactions_and_policies():
    expected = {"list_view_templates": False, "apply_view_template": True, "duplicate_view": True}
    for name, writes in expected.items():
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy, spec.needs_approval) == (writes, "none", False), name
        assert (spec.describe is not None) == writes, name


# --- the stand-in speaks the real API ----------------------------------------------------------------


def test_a_template_controls_scale_and_detail_level_and_fits_its_kind_of_view_only(duplex):
    plan, view_3d, template = duplex.view("Level 1"), duplex.view("{3D}"), duplex.view("Architectural Plan")

    def apply():
        assert template.IsTemplate and not plan.IsTemplate
        assert plan.IsValidViewTemplate(template.Id) and not view_3d.IsValidViewTemplate(template.Id)
        transaction = DB.Transaction(duplex.doc, "Template")
        transaction.Start()
        plan.ViewTemplateId = template.Id
        with pytest.raises(ArgumentException):
            view_3d.ViewTemplateId = template.Id
        with pytest.raises(TypeError):         # pythonnet: an int is not an ElementId
            plan.ViewTemplateId = template.Id.Value
        transaction.Commit()
    duplex.call(apply)
    assert view_state(duplex, "Level 1") == ("Architectural Plan", 50, "Medium")
    assert view_state(duplex, "{3D}") == (None, 100, "Coarse")


def test_duplicate_and_create_template_need_a_transaction_and_follow_the_options(duplex):
    plan = duplex.view("Level 1")

    def duplicate():
        with pytest.raises(Exception, match="outside of transaction"):
            plan.Duplicate(DB.ViewDuplicateOption.Duplicate)
        transaction = DB.Transaction(duplex.doc, "Duplicate")
        transaction.Start()
        copy = duplex.doc.GetElement(plan.Duplicate(DB.ViewDuplicateOption.Duplicate))
        dependent = duplex.doc.GetElement(plan.Duplicate(DB.ViewDuplicateOption.AsDependent))
        template = plan.CreateViewTemplate()
        assert not template.CanViewBeDuplicated(DB.ViewDuplicateOption.Duplicate)
        with pytest.raises(InvalidOperationException):
            template.Duplicate(DB.ViewDuplicateOption.Duplicate)
        transaction.Commit()
        return (copy.Name, copy.GenLevel.Name, dependent.Name, dependent.GetPrimaryViewId() == plan.Id,
                template.IsTemplate, plan.IsValidViewTemplate(template.Id))
    assert duplex.call(duplicate) == ("Level 1 Copy 1", "Level 1", "Level 1 - Dependent 1", True, True, True)
    assert not duplex.call(lambda: duplex.view("{3D}").CanViewBeDuplicated(DB.ViewDuplicateOption.AsDependent))


# --- list_view_templates ---------------------------------------------------------------------------------


def test_list_view_templates_says_what_each_is_for_and_how_many_views_use_it(revit):
    assert revit.text("list_view_templates").splitlines()[:4] == [
        "3 view templates:",
        f"- '3D Default' · for 3D Views · scale 1:100 · detail Fine · applied to 0 views · id {template_id(revit, '3D Default')}",
        f"- 'Architectural Plan' · for floor plans · scale 1:50 · detail Medium · applied to 0 views · "
        f"id {template_id(revit, 'Architectural Plan')}",
        f"- 'Site Plan' · for floor plans · scale 1:200 · detail Coarse · applied to 0 views · "
        f"id {template_id(revit, 'Site Plan')}",
    ]
    revit.text("apply_view_template", {"views": plan_names(revit)[:2], "template": "Site Plan"})
    assert "'Site Plan' · for floor plans · scale 1:200 · detail Coarse · applied to 2 views" in \
        revit.text("list_view_templates", {"name_contains": "site"})
    assert revit.text("list_view_templates", {"name_contains": "nothing like it"}) == \
        "The project has no view templates whose name contains 'nothing like it'."


def template_id(revit, name: str) -> int:
    return revit.call(lambda: revit.view(name).Id.Value)


# --- apply_view_template ---------------------------------------------------------------------------------


def test_apply_view_template_to_named_views_changes_their_scale_and_detail_level(revit):
    plans = plan_names(revit)
    text = revit.text("apply_view_template", {"views": plans, "template": "architectural plan"})
    assert text.startswith(f"Applied the view template 'Architectural Plan' to {len(plans)} views: ")
    assert text.endswith("They show at 1:50, detail Medium.")
    assert all(view_state(revit, name) == ("Architectural Plan", 50, "Medium") for name in plans)
    assert revit.session.working_set.ids == ()
    assert revit.undo_names() == ["Agent step"]


def test_apply_view_template_by_ids_and_on_the_working_sets_views(duplex):
    view_3d = duplex.call(lambda: duplex.view("{3D}").Id.Value)
    duplex.text("apply_view_template", {"views": [view_3d], "template": "3D Default"})
    assert view_state(duplex, "{3D}") == ("3D Default", 100, "Fine")
    wall = duplex.ids(DB.BuiltInCategory.OST_Walls)[0]
    level_2 = duplex.call(lambda: duplex.view("Level 2").Id.Value)
    duplex.session.working_set.replace([wall, level_2])   # a wall is not a view: left alone
    text = duplex.text("apply_view_template", {"template": "Site Plan"})
    assert text.startswith("Applied the view template 'Site Plan' to 1 view: 'Floor Plan: Level 2'.")
    assert view_state(duplex, "Level 2") == ("Site Plan", 200, "Coarse")


def test_a_template_of_another_kind_is_refused_with_the_ones_that_fit_and_nothing_changes(revit):
    plan = plan_names(revit)[0]
    message = revit.error("apply_view_template", {"views": [plan, "{3D}"], "template": "Architectural Plan"})
    assert message == ("The view template 'Architectural Plan' is for floor plans, so Revit cannot apply it to "
                       "'3D View: {3D}'. Templates for 3D Views: '3D Default'. Nothing was changed: call again "
                       "without those views, or with a template of their kind.")
    assert view_state(revit, plan) == (None, 100, "Coarse") and revit.undo_names() == []


def test_unknown_templates_and_views_and_an_empty_working_set_say_what_to_do(duplex):
    assert duplex.error("apply_view_template", {"views": ["Level 1"], "template": "Sit Plan"}) == (
        "No view template named 'Sit Plan'. Did you mean 'Site Plan' or 'Architectural Plan'? "
        "View templates: '3D Default', 'Architectural Plan', 'Site Plan'.")
    assert duplex.error("apply_view_template", {"views": ["Level 9"], "template": "Site Plan"}).startswith(
        "No view named 'Level 9'.")
    assert duplex.error("apply_view_template", {"template": "Site Plan"}).startswith(
        "The working set holds no views. Give the views by name or id")
    assert duplex.error("apply_view_template", {"views": [], "template": "Site Plan"}).startswith("views is empty")
    # a template is not a view to apply templates to
    assert duplex.error("apply_view_template", {"views": ["Site Plan"], "template": "Site Plan"}).startswith(
        "No view named 'Site Plan'.")


def test_apply_view_template_describes_the_change_for_the_approval(duplex):
    assert duplex.describe("apply_view_template", {"views": ["Level 1"], "template": "Site Plan"}) == (
        "Apply the view template 'Site Plan' to 'Level 1': they take its scale, detail level and other settings.")


# --- duplicate_view ------------------------------------------------------------------------------------------


def test_duplicate_view_makes_a_named_copy_and_puts_it_in_the_working_set(revit):
    plan = plan_names(revit)[0]
    revit.text("apply_view_template", {"views": [plan], "template": "Architectural Plan"})
    text = revit.text("duplicate_view", {"view": plan, "name": f"{plan} - Furniture"})
    new = revit.view(f"{plan} - Furniture")
    new_id = revit.call(lambda: new.Id.Value)
    assert text == (f"Duplicated 'Floor Plan: {plan}' without detailing: new view 'Floor Plan: {plan} - Furniture' "
                    f"(id {new_id}), now the working set. It uses the view template 'Architectural Plan'. "
                    "Call activate_view to open it.")
    assert revit.session.working_set.ids == (new_id,)
    assert view_state(revit, f"{plan} - Furniture") == ("Architectural Plan", 50, "Medium")
    assert revit.call(lambda: new.GenLevel.Name) == revit.call(lambda: revit.view(plan).GenLevel.Name)
    # the working set's view is what apply_view_template works on next
    revit.text("apply_view_template", {"template": "Site Plan"})
    assert view_state(revit, f"{plan} - Furniture")[0] == "Site Plan"
    assert view_state(revit, plan)[0] == "Architectural Plan"


def test_duplicate_view_with_detailing_and_revits_default_name(duplex):
    text = duplex.text("duplicate_view", {"view": "{3D}", "with_detailing": True})
    assert text.startswith("Duplicated '3D View: {3D}' with detailing: new view '3D View: {3D} Copy 1'")
    assert duplex.view("{3D} Copy 1") is not None


def test_duplicate_view_refuses_a_name_in_use_and_unknown_views(duplex):
    assert duplex.error("duplicate_view", {"view": "Level 1", "name": "Level 2"}).startswith(
        "A floor plan named 'Level 2' already exists (id ")
    assert duplex.error("duplicate_view", {"view": "Level 1", "name": "  "}).startswith("name is empty")
    assert duplex.error("duplicate_view", {"view": "Levle 1"}).startswith(
        "No view named 'Levle 1'. Did you mean 'Level 1'")
    assert len(plan_names(duplex)) == 4 and duplex.undo_names() == []


# --- read-back --------------------------------------------------------------------------------------------


def test_a_template_revit_does_not_keep_is_an_error_and_no_view_changes(duplex, monkeypatch):
    plans = plan_names(duplex)
    before = [view_state(duplex, name) for name in plans]
    real = DB.View.ViewTemplateId
    monkeypatch.setattr(DB.View, "ViewTemplateId", property(real.fget, lambda self, value: None))  # Revit ignores it
    message = duplex.error("apply_view_template", {"views": plans, "template": "Architectural Plan"})
    assert message.startswith("Applying the view template 'Architectural Plan': Revit did not do what was asked.")
    assert "view template: asked 'Architectural Plan', Revit has none" in message and "Nothing was changed" in message
    assert [view_state(duplex, name) for name in plans] == before


def test_a_duplicate_named_otherwise_is_an_error_and_no_view_is_made(duplex, monkeypatch):
    names = plan_names(duplex)
    real = DB.Element.Name
    monkeypatch.setattr(DB.View, "Name", property(real.fget, lambda self, value: real.fset(self, value + " Copy 1")))
    message = duplex.error("duplicate_view", {"view": "Level 1", "name": "Level 1 - furniture"})
    assert "name: asked 'Level 1 - furniture', Revit has 'Level 1 - furniture Copy 1'" in message
    assert plan_names(duplex) == names


def test_list_view_templates_pages_with_offset(revit, monkeypatch):
    """Issue 37, item 5: the listing says how to read its next page, and that offset reads it."""
    monkeypatch.setattr(view_template_tools, "SHOWN_TEMPLATES", 1)
    first = revit.text("list_view_templates")
    hint = first.splitlines()[-2]
    assert hint.endswith("call again with offset 1. Or pass name_contains to narrow the list."), first
    second = revit.text("list_view_templates", {"offset": 1})
    assert "— items 2–2 of" in second.splitlines()[0]
    assert first.splitlines()[1] != second.splitlines()[1]
