"""The Settings dialog's firm standards folder (docs/STANDARDS.md): shown as typed, saved (blank: none),
and the line under it lists the standards it loads and each file that failed to parse, with its line."""
from __future__ import annotations

from _config_support import isolated  # noqa: F401 - fixture
from paracore.core.settings import Settings, read_settings
from paracore.ui.settings_view import FormValues, SettingsForm


def test_the_field_shows_the_folder_and_saving_keeps_it(isolated, tmp_path):
    form = SettingsForm(Settings(standards_folder=r"\\server\bim\standards"))
    assert form.values().standards_folder == r"\\server\bim\standards"
    assert SettingsForm(Settings()).values().standards_folder == ""
    form.save(FormValues(provider="anthropic", standards_folder=f"  {tmp_path}  "))
    assert read_settings(isolated.settings_file).settings.standards_folder == str(tmp_path)
    form.save(FormValues(provider="anthropic", standards_folder="   "))
    assert read_settings(isolated.settings_file).settings.standards_folder is None


def test_the_hint_lists_the_standards_loaded_and_the_files_that_failed(isolated, tmp_path):
    assert SettingsForm.standards_hint("") == ("Loaded: door-numbering (bundled), required-parameters (bundled), "
                                               "sheet-naming (bundled), view-naming (bundled).")
    share = tmp_path / "share"
    share.mkdir()
    (share / "sheets.md").write_text("---\nname: sheet-naming\ndescription: AA-000.\n---\nThe firm's.\n",
                                     encoding="utf-8")
    (share / "walls.md").write_text("---\nname: walls\ndescription: y\nnaming:\n  Walls: '^W'\n---\nx\n",
                                    encoding="utf-8")
    hint = SettingsForm.standards_hint(str(share))
    assert "sheet-naming (firm, replaces the bundled one)" in hint
    assert f"Not loaded: {share / 'walls.md'}, line 5: naming rule 'Walls' must be" in hint
    assert "cannot be read" in SettingsForm.standards_hint(str(tmp_path / "offline"))
