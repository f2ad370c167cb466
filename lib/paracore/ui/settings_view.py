"""The Settings dialog: provider, model, base URL, API key, approval policy, pinned toolsets, and the
firm standards folder (with the standards it loads and the files that failed to parse).

Two halves. ``SettingsForm`` is pure Python (tested anywhere): what the fields show for some
settings, the hints, where the key comes from, and the validated ``Settings`` the fields make.
``SettingsDialog`` is the WPF window (settings_window.xaml, loaded with XamlReader.Parse, events
wired in Python); it only copies values between the form and the controls.

The API key goes into the OS credential store (``paracore.llm.credentials.store_key``) and is
never shown back: the key box always opens empty, and a line says where the key in use comes
from (the credential store or an environment variable).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from paracore.core import standards
from paracore.core.settings import Limits, PROVIDERS, Settings, SettingsError, load_settings, save_settings
from paracore.core.toolsets import pinnable_names
from paracore.llm import credentials
from paracore.llm.providers import DEFAULT_MODELS, PROVIDER_LABELS, ProviderNotConfigured, check_configuration
from paracore.ui.wpf import Named, brush, on, parse_xaml, visibility

log = logging.getLogger("paracore.ui.settings")

SETTINGS_XAML = "settings_window.xaml"
XAML_NAMES: dict[str, tuple[str, ...]] = {
    SETTINGS_XAML: (
        "ProviderBox", "ModelBox", "ModelHint", "BaseUrlBox", "BaseUrlHint", "KeyBox", "RemoveKeyButton",
        "KeyStatus", "ApprovalBox", "ApprovalHint", "PinnedToolsetsBox", "PinnedToolsetsHint", "VisionBox",
        "MessageText", "StandardsFolderBox", "StandardsHint", "ExportFolderBox", "StepsBox", "CheckButton", "SaveButton", "CancelButton",
    ),
}

NO_PROVIDER = "(choose a provider)"
PROVIDER_CHOICES: tuple[tuple[str | None, str], ...] = ((None, NO_PROVIDER),) + tuple(
    (name, PROVIDER_LABELS.get(name, name)) for name in PROVIDERS)
APPROVAL_CHOICES: tuple[tuple[str, str], ...] = (
    ("ask_writes", "Ask before changing the model (reading runs freely)"),
    ("ask_all", "Ask before every tool call"),
    ("never", "Never ask (deleting and generated code still ask)"),
)
VISION_CHOICES: tuple[tuple[bool | None, str], ...] = (
    (None, "The provider's default (an OpenAI-compatible server: described in words)"),
    (True, "The model sees them"),
    (False, "Described in words (a model without vision)"),
)
"""Settings.vision: whether pictures (capture_view) reach the model as pictures."""
APPROVAL_HINTS = {
    "ask_writes": "Each change to the model waits for your Approve; \"Always\" skips the question for that tool "
                  "until Revit closes.",
    "ask_all": "Even reading the model waits for your Approve.",
    "never": "Changes run without asking. Every agent step is one undo (Ctrl+Z) in Revit.",
}


@dataclass(frozen=True)
class FormValues:
    """What the dialog's fields hold (strings as typed; the key only while typed, never loaded)."""

    provider: str | None
    model: str = ""
    base_url: str = ""
    approval_policy: str = "ask_writes"
    api_key: str = ""
    pinned_toolsets: str = ""
    """Toolset names separated by commas, as typed (e.g. "views, schedules")."""
    standards_folder: str = ""
    """The firm's standards folder, as typed (empty: the bundled standards only)."""
    export_folder: str = ""
    """Where exports write, as typed (empty: beside the model, or Documents)."""
    vision: bool | None = None
    max_steps: str = "25"
    """Steps per turn (``limits.max_steps``), as typed."""


def _steps(typed: str) -> int:
    """Steps per turn as typed, checked against the setting's bounds; a ValueError says what fits."""
    field = Limits.model_fields["max_steps"]
    low, high = (next(m.ge for m in field.metadata if hasattr(m, "ge")),
                 next(m.le for m in field.metadata if hasattr(m, "le")))
    try:
        steps = int(typed.strip())
    except ValueError:
        steps = None
    if steps is None or not low <= steps <= high:
        raise ValueError(f"Steps per turn must be a whole number from {low} to {high} (25 is the default), "
                         f"not '{typed.strip()}'.")
    return steps


class SettingsForm:
    """The dialog's logic, without WPF."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def values(self) -> FormValues:
        s = self.settings
        return FormValues(provider=s.provider, model=s.model or "", base_url=s.base_url or "",
                          approval_policy=s.approval_policy, pinned_toolsets=", ".join(s.pinned_toolsets),
                          standards_folder=s.standards_folder or "", export_folder=s.export_folder or "",
                          vision=s.vision,
                          max_steps=str(s.limits.max_steps))

    @staticmethod
    def model_hint(provider: str | None) -> str:
        if provider is None:
            return "Choose a provider first."
        default = DEFAULT_MODELS.get(provider)
        if default:
            return f"Leave empty for {PROVIDER_LABELS.get(provider, provider)}'s default, {default}."
        return "Required: the model your server serves (e.g. qwen3:8b in Ollama, see `ollama list`)."

    @staticmethod
    def base_url_hint(provider: str | None, typed: str = "") -> str:
        if provider is None:
            return ""
        if provider == "openai-compatible":
            return "Required: e.g. http://localhost:11434/v1 (Ollama) or http://localhost:1234/v1 (LM Studio)."
        source = credentials.base_url_source(provider, typed or None)
        if source and source != "settings":
            return f"Empty: {source} from the environment is used ({credentials.resolve_base_url(provider, None)})."
        return "Leave empty to use the provider's own endpoint (or a proxy / gateway URL)."

    @staticmethod
    def key_status(provider: str | None) -> str:
        """Where the key in use comes from; never the key itself."""
        if provider is None:
            return ""
        store = credentials.credential_store_name()
        try:
            source = credentials.key_source(provider)
        except Exception:  # noqa: BLE001 - a broken store reads as "not there"
            source = None
        if source == "credential store":
            return f"A key is stored in the {store}. Type a new one to replace it."
        if source == "environment":
            names = " or ".join(credentials.env_key_names(provider))
            return f"Using {names} from the environment. A key typed here goes to the {store} and wins."
        if provider == "openai-compatible":
            return "Local servers (Ollama, LM Studio) need no key; a gateway may."
        return f"No key yet: paste it here; it is saved in the {store}, never in the settings file."

    @staticmethod
    def approval_hint(policy: str) -> str:
        return APPROVAL_HINTS.get(policy, "")

    @staticmethod
    def pinned_toolsets_hint() -> str:
        return (f"Toolsets on from the start of every conversation (the model turns the others on when it "
                f"needs them): {', '.join(pinnable_names())}. Each adds its tools to every request.")

    @staticmethod
    def standards_hint(folder: str) -> str:
        """Which standards the folder typed gives (with the bundled ones) and each file that failed to parse."""
        return standards.load_standards(folder.strip() or None).report()

    def settings_from(self, values: FormValues) -> Settings:
        """The settings the fields make, validated; raises ValueError with a message for the user."""
        limits = self.settings.limits.model_dump() | {"max_steps": _steps(values.max_steps)}
        try:
            return self.settings.with_changes(provider=values.provider, model=values.model or None,
                                              base_url=values.base_url or None,
                                              approval_policy=values.approval_policy, vision=values.vision,
                                              pinned_toolsets=values.pinned_toolsets.replace(";", ",").split(","),
                                              standards_folder=values.standards_folder or None,
                                              export_folder=values.export_folder or None, limits=limits)
        except ValueError as error:  # pydantic's ValidationError is a ValueError
            raise ValueError(_first_error(error)) from None

    def check(self, values: FormValues) -> str:
        """"Check": whether a turn could start with these values (no request is sent)."""
        settings = self.settings_from(values)
        try:
            check_configuration(settings, api_key=values.api_key or None)
        except ProviderNotConfigured as problem:
            raise ValueError(problem.message) from None
        model = settings.model or DEFAULT_MODELS.get(settings.provider or "") or ""
        return f"Complete: {PROVIDER_LABELS.get(settings.provider, settings.provider)} · {model}."

    def save(self, values: FormValues, *, path=None) -> str:
        """Store the key (if one was typed), then save the settings; the message for the user."""
        settings = self.settings_from(values)
        notes = []
        if values.api_key.strip():
            if settings.provider is None:
                raise ValueError("Choose the provider this key belongs to.")
            credentials.store_key(settings.provider, values.api_key)  # CredentialStoreError says what to do
            notes.append(f"key saved in the {credentials.credential_store_name()}")
        try:
            where = save_settings(settings, path)
        except SettingsError as error:
            raise ValueError(str(error)) from None
        self.settings = settings
        notes.insert(0, f"settings saved to {where}")
        return "Saved: " + "; ".join(notes) + "."

    def remove_key(self, provider: str | None) -> str:
        if provider is None:
            raise ValueError("Choose the provider whose key to remove.")
        removed = credentials.delete_key(provider)
        label = PROVIDER_LABELS.get(provider, provider)
        return f"Removed the stored {label} key." if removed else f"No {label} key was stored."


def _first_error(error: Exception) -> str:
    errors = getattr(error, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()) if isinstance(p, str))
            message = str(first.get("msg", error)).removeprefix("Value error, ")
            return f"{where}: {message}" if where else message
        except Exception:  # noqa: BLE001
            pass
    return str(error).split("\n", 1)[0]


# =============================================================================================
# The WPF dialog (Revit only)
# =============================================================================================

class SettingsDialog:
    """settings_window.xaml bound to a SettingsForm."""

    def __init__(self, form: SettingsForm) -> None:
        self.form = form
        self.window = parse_xaml(SETTINGS_XAML)
        self.ui = Named(self.window, SETTINGS_XAML, XAML_NAMES)
        self.saved = False
        ui = self.ui
        for _, label in PROVIDER_CHOICES:
            ui.ProviderBox.Items.Add(label)
        for _, label in APPROVAL_CHOICES:
            ui.ApprovalBox.Items.Add(label)
        for _, label in VISION_CHOICES:
            ui.VisionBox.Items.Add(label)
        self._load(form.values())
        on(ui.ProviderBox.SelectionChanged, "change the provider", lambda s, e: self._refresh_hints())
        on(ui.ApprovalBox.SelectionChanged, "change the approvals", lambda s, e: self._refresh_hints())
        on(ui.BaseUrlBox.TextChanged, "change the base URL", lambda s, e: self._refresh_hints())
        on(ui.CheckButton.Click, "check the settings", lambda s, e: self._check())
        on(ui.SaveButton.Click, "save the settings", lambda s, e: self._save())
        on(ui.CancelButton.Click, "close the settings", lambda s, e: self.window.Close())
        on(ui.RemoveKeyButton.Click, "remove the key", lambda s, e: self._remove_key())

    def _load(self, values: FormValues) -> None:
        ui = self.ui
        providers = [name for name, _ in PROVIDER_CHOICES]
        ui.ProviderBox.SelectedIndex = providers.index(values.provider) if values.provider in providers else 0
        ui.ModelBox.Text = values.model
        ui.BaseUrlBox.Text = values.base_url
        policies = [name for name, _ in APPROVAL_CHOICES]
        ui.ApprovalBox.SelectedIndex = policies.index(values.approval_policy) if values.approval_policy in policies else 0
        ui.PinnedToolsetsBox.Text = values.pinned_toolsets
        ui.StandardsFolderBox.Text = values.standards_folder
        ui.ExportFolderBox.Text = values.export_folder
        ui.VisionBox.SelectedIndex = [choice for choice, _ in VISION_CHOICES].index(values.vision)
        ui.StepsBox.Text = values.max_steps
        ui.KeyBox.Password = ""
        self._refresh_hints()
        self._refresh_standards()

    def _values(self) -> FormValues:
        ui = self.ui
        provider_index = max(0, int(ui.ProviderBox.SelectedIndex))
        approval_index = max(0, int(ui.ApprovalBox.SelectedIndex))
        return FormValues(provider=PROVIDER_CHOICES[provider_index][0], model=(ui.ModelBox.Text or "").strip(),
                          base_url=(ui.BaseUrlBox.Text or "").strip(),
                          approval_policy=APPROVAL_CHOICES[approval_index][0], api_key=ui.KeyBox.Password or "",
                          pinned_toolsets=(ui.PinnedToolsetsBox.Text or "").strip(),
                          standards_folder=(ui.StandardsFolderBox.Text or "").strip(),
                          export_folder=(ui.ExportFolderBox.Text or "").strip(),
                          vision=VISION_CHOICES[max(0, int(ui.VisionBox.SelectedIndex))][0],
                          max_steps=(ui.StepsBox.Text or "").strip())

    def _refresh_hints(self) -> None:
        values = replace(self._values(), api_key="")
        ui = self.ui
        ui.ModelHint.Text = self.form.model_hint(values.provider)
        ui.BaseUrlHint.Text = self.form.base_url_hint(values.provider, values.base_url)
        ui.KeyStatus.Text = self.form.key_status(values.provider)
        ui.ApprovalHint.Text = self.form.approval_hint(values.approval_policy)
        ui.PinnedToolsetsHint.Text = self.form.pinned_toolsets_hint()
        ui.RemoveKeyButton.IsEnabled = values.provider is not None

    def _refresh_standards(self) -> None:
        """Read the folder typed: on opening and on Check (a share may be slow to list, so not at each key)."""
        self.ui.StandardsHint.Text = self.form.standards_hint(self._values().standards_folder)

    def _say(self, text: str, error: bool = False) -> None:
        self.ui.MessageText.Text = text
        self.ui.MessageText.Foreground = brush("#FFC62828" if error else "#FF2E8B57")
        self.ui.MessageText.Visibility = visibility(bool(text))

    def _check(self) -> None:
        self._refresh_standards()
        try:
            self._say(self.form.check(self._values()))
        except ValueError as problem:
            self._say(str(problem), error=True)

    def _save(self) -> None:
        try:
            message = self.form.save(self._values())
        except (ValueError, credentials.CredentialStoreError) as problem:
            self._say(str(problem), error=True)
            return
        self.ui.KeyBox.Password = ""
        self.saved = True
        log.info("%s", message)
        self.window.Close()

    def _remove_key(self) -> None:
        try:
            self._say(self.form.remove_key(self._values().provider))
        except (ValueError, credentials.CredentialStoreError) as problem:
            self._say(str(problem), error=True)
        self._refresh_hints()

    def show(self, uiapp=None) -> bool:
        """Modal; True when the user saved."""
        from System.Windows.Interop import WindowInteropHelper
        if uiapp is not None:
            try:
                WindowInteropHelper(self.window).Owner = uiapp.MainWindowHandle
            except Exception:  # noqa: BLE001
                log.debug("Could not set the settings window's owner", exc_info=True)
        self.window.ShowDialog()
        return self.saved


def show_settings(uiapp=None) -> bool:
    """The Settings button: the dialog on the current settings; True when saved."""
    return SettingsDialog(SettingsForm(load_settings())).show(uiapp)
