"""The Settings dialog's pinned toolsets (docs/TOOLSETS.md): shown as typed names, saved as the
validated list, an unknown name refused with the valid ones."""
from __future__ import annotations

import pytest

from _config_support import isolated  # noqa: F401 - fixture
from paracore.core.settings import Settings, read_settings
from paracore.core.toolsets import NAMES
from paracore.ui.settings_view import FormValues, SettingsForm


def test_the_field_shows_the_pinned_toolsets_and_the_hint_lists_them_all(isolated):
    form = SettingsForm(Settings(pinned_toolsets=["views", "schedules"]))
    assert form.values().pinned_toolsets == "views, schedules"
    assert all(name in form.pinned_toolsets_hint() for name in NAMES)


def test_saving_keeps_the_names_typed_in_order_without_blanks_or_repeats(isolated):
    form = SettingsForm(Settings())
    form.save(FormValues(provider="anthropic", pinned_toolsets=" schedules;views, ,schedules "))
    assert read_settings(isolated.settings_file).settings.pinned_toolsets == ["schedules", "views"]


def test_an_unknown_toolset_says_which_exist(isolated):
    with pytest.raises(ValueError, match="unknown toolset 'sheets'.*documentation"):
        SettingsForm(Settings()).settings_from(FormValues(provider="anthropic", pinned_toolsets="sheets"))
