"""The Settings dialog's export folder (tools/exports/destination.py): shown as typed, saved (blank:
none, which exports beside the model), and read by export_pdf as its default folder."""
from __future__ import annotations

from _config_support import isolated  # noqa: F401 - fixture
from paracore.core.settings import Settings, load_settings, read_settings
from paracore.tools.exports.destination import destination
from paracore.ui.settings_view import FormValues, SettingsForm


def test_the_field_shows_the_folder_and_saving_keeps_it(isolated, tmp_path):
    form = SettingsForm(Settings(export_folder=r"\\server\issues"))
    assert form.values().export_folder == r"\\server\issues"
    assert SettingsForm(Settings()).values().export_folder == ""
    form.save(FormValues(provider="anthropic", export_folder=f"  {tmp_path}  "))
    assert read_settings(isolated.settings_file).settings.export_folder == str(tmp_path)
    form.save(FormValues(provider="anthropic", export_folder="   "))
    assert read_settings(isolated.settings_file).settings.export_folder is None


def test_the_saved_folder_is_where_exports_go(isolated, tmp_path):
    SettingsForm(Settings()).save(FormValues(provider="anthropic", export_folder=str(tmp_path)))

    class Unsaved:
        PathName = ""
    place = destination(Unsaved(), None, load_settings().export_folder)
    assert (place.folder, place.where) == (tmp_path, "the export folder of the settings")
