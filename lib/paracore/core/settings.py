"""The user's settings: which provider and model, approvals, limits, script folders.

Stored as one JSON file, ``settings.json``, in the user's config directory
(``platformdirs.user_config_dir("Paracore")``; the environment variable ``PARACORE_CONFIG_DIR``
overrides it, for tests and portable installs). Saving is atomic: a temporary file in the same
folder, then ``os.replace``, so a crash or a second Revit never leaves half a file.

API keys are never part of the settings. They live in the OS credential store or the
provider's environment variable (see ``paracore.llm.credentials``). This is enforced twice:
a settings model cannot even be *defined* with a field named like a key, secret, token or
password, and validation refuses such a name in the input ("api_key", "accessToken", …).

Loading never crashes the add-in: a file that is not JSON is set aside as
``settings.json.corrupt-<timestamp>`` (numbered ``-2``, ``-3``, ... when that name is taken) and
the defaults are used; an unknown or invalid field is dropped and its default used. Either way
``read_settings`` returns the warnings, written for the user, and ``load_settings`` logs them.
"""
from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from paracore.core.atomic_file import atomic_write
from paracore.core.toolsets import check_names

log = logging.getLogger(__name__)

SETTINGS_FILENAME = "settings.json"
SETTINGS_VERSION = 1
CONFIG_DIR_ENV = "PARACORE_CONFIG_DIR"
APP_NAME = "Paracore"

ProviderName = Literal["anthropic", "openai", "openai-compatible", "gemini"]
PROVIDERS: tuple[str, ...] = get_args(ProviderName)
ApprovalMode = Literal["ask_writes", "ask_all", "never"]


# --------------------------------------------------------------------------------------------
# No secrets in settings
# --------------------------------------------------------------------------------------------

# Name segments that mean "this holds a credential". "tokens" (plural, a count) is fine:
# max_output_tokens is a limit, access_token is a secret.
_SECRET_SEGMENTS = frozenset({
    "key", "keys", "apikey", "secret", "secrets", "token", "password", "passwd", "pwd",
    "credential", "credentials", "auth", "authorization", "bearer", "passphrase",
})


def looks_like_secret_name(name: str) -> bool:
    """Whether a field name ("api_key", "apiKey", "x-api-key", "access_token") names a credential."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(name))
    segments = [s.lower() for s in re.split(r"[^A-Za-z0-9]+", spaced) if s]
    return any(s in _SECRET_SEGMENTS for s in segments) or "apikey" in "".join(segments)


def _secret_names(value: Any, path: str = "") -> list[str]:
    """Every key named like a secret in a JSON-like value, as dotted paths."""
    found: list[str] = []
    if isinstance(value, dict):
        for name, item in value.items():
            where = f"{path}.{name}" if path else str(name)
            if looks_like_secret_name(name):
                found.append(where)
            found += _secret_names(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _secret_names(item, f"{path}[{index}]")
    return found


_NO_SECRETS_HINT = ("API keys are never kept in Paracore's settings: store the key in the credential store "
                    "(Settings > API key) or set the provider's environment variable (e.g. ANTHROPIC_API_KEY).")


BASE_URL_FORM = "http://HOST[:PORT]/PATH (or https://)"
_BASE_URL_EXAMPLE = "e.g. http://localhost:11434/v1 for Ollama"


def base_url_problem(value: str) -> str | None:
    """Why ``value`` cannot be a provider's base URL (one sentence naming the form expected), or
    None. Read as the HTTP clients will read it, so that nothing they refuse later (a missing host,
    an IPv6 address without its closing bracket, a port out of range) gets past the settings."""
    from urllib.parse import urlsplit

    quoted = f"base URL {value!r}"
    if not re.match(r"(?i)^https?://", value):
        return f"the {quoted} must start with http:// or https://: give {BASE_URL_FORM}, {_BASE_URL_EXAMPLE}"
    try:
        parts = urlsplit(value)
        port = parts.port   # ValueError for a port that is no number from 0 to 65535
    except ValueError as error:
        return f"the {quoted} cannot be read ({error}): give {BASE_URL_FORM}, {_BASE_URL_EXAMPLE}"
    if parts.username is not None or parts.password is not None or \
            re.search(r"(?i)[?&](key|api[-_]?key|token|access_token)=", value):
        return f"the base URL must not contain credentials. {_NO_SECRETS_HINT}"
    if not parts.hostname or re.search(r"\s", value):
        return f"the {quoted} has no host: give {BASE_URL_FORM}, {_BASE_URL_EXAMPLE}"
    if port == 0:
        return f"the {quoted} has port 0: give {BASE_URL_FORM}, {_BASE_URL_EXAMPLE}"
    return None


class _SettingsModel(BaseModel):
    """Base of every model saved in the settings file: frozen, strict about names, no secrets."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        bad = [name for name in cls.model_fields if looks_like_secret_name(name)]
        if bad:
            raise TypeError(f"{cls.__name__} declares {', '.join(bad)}: {_NO_SECRETS_HINT}")

    @model_validator(mode="before")
    @classmethod
    def _refuse_secret_names(cls, data: Any) -> Any:
        if isinstance(data, dict):
            bad = [name for name in data if looks_like_secret_name(name)]
            if bad:
                raise ValueError(f"{', '.join(map(repr, bad))} looks like a credential. {_NO_SECRETS_HINT}")
        return data


# --------------------------------------------------------------------------------------------
# The settings
# --------------------------------------------------------------------------------------------

class Limits(_SettingsModel):
    """How far one turn may go. Field names match ``paracore.agent.AgentLimits``."""

    max_steps: int = Field(default=25, ge=1, le=200)
    """Model calls per user turn before the agent stops and asks how to continue. 25: a step adds
    about 200 tokens to the conversation and a result at most 2,000 characters (README,
    "Steps per turn", gives the reckoning from bench/RESULTS.md)."""
    max_output_tokens: int | None = Field(default=4096, ge=1)
    """Cap on one model response (None: the adapter's default)."""
    context_window_tokens: int | None = Field(default=None, ge=1024)
    """The model's context window; the history is trimmed to fit it. None: a default for the provider."""
    chunk_timeout: float = Field(default=60.0, gt=0, le=3600)
    """Seconds of silence accepted between two streamed chunks before the call fails. A bound per
    chunk, not per request: a long answer legitimately streams for minutes."""
    first_byte_timeout: float = Field(default=60.0, gt=0, le=3600)
    """Seconds to wait for the model to start answering (its first streamed event) before the
    request is sent again (``paracore.llm.retry``). A local server loading a large model for its
    first request may need more."""


class Settings(_SettingsModel):
    """Everything the user configures, except API keys (see ``paracore.llm.credentials``)."""

    version: int = SETTINGS_VERSION
    provider: ProviderName | None = None
    """None until the user chooses; ``create_model`` then says what to do."""
    model: str | None = None
    """The provider's model id; None means the provider's default (``providers.DEFAULT_MODELS``)."""
    base_url: str | None = None
    """Custom endpoint (a proxy, Azure-style gateway, Ollama, LM Studio). None: the provider's own,
    or ANTHROPIC_BASE_URL / OPENAI_BASE_URL from the environment."""
    vision: bool | None = None
    """Whether the model can see pictures (capture_view's). None: the provider's default — yes for
    Anthropic, OpenAI and Gemini, no for an OpenAI-compatible server (most local models cannot).
    A model without vision reads the picture's description instead."""
    approval_policy: ApprovalMode = "ask_writes"
    limits: Limits = Field(default_factory=Limits)
    script_folders: list[str] = Field(default_factory=list)
    """Folders of user scripts the agent may offer (paths as typed; they may be offline drives)."""
    pinned_toolsets: list[str] = Field(default_factory=lambda: ["modelling"])
    """Toolsets on from the first request of every conversation (paracore.core.toolsets.NAMES);
    the model turns the others on when it needs them (docs/TOOLSETS.md). Modelling by default:
    "create a wall, place doors on it" is the most common first request, and asking for the
    toolset first would cost every such conversation an extra model step."""
    qa_required_parameters: dict[str, list[str]] = Field(
        default_factory=lambda: {"Doors": ["Mark"], "Windows": ["Mark"], "Rooms": ["Number", "Name"]})
    """check_model's empty_parameters: the parameters that must not be left empty, by category name."""
    qa_view_name_pattern: str = r"^(?!.*\bCopy( \d+)?$).+$"
    """check_model's naming: a regular expression every view name must match. The default only flags
    the names Revit gives duplicates ("Level 1 Copy 1"), which nobody meant to issue."""
    qa_sheet_number_pattern: str = r"^[A-Z]{1,2}\d{2,4}$"
    """check_model's naming: a regular expression every sheet number must match (A101, AD1200)."""
    standards_folder: str | None = None
    """The firm's standards (markdown files, docs/STANDARDS.md), a network share in practice: they are
    added to the bundled ones, and one named like a bundled standard replaces it. None: the bundled
    standards only. A folder that cannot be read is reported (Settings, the Doctor), never fatal."""
    export_folder: str | None = None
    """Where the export tools (export_pdf, ...) write their files. None: beside the model (the folder of
    its file), or the user's Documents folder for a model never saved (tools/exports/destination.py)."""
    mcp_listener: bool = True
    """Inside Revit, listen on loopback (127.0.0.1 and ::1, a random port, a per-session token in
    a file only this user can read) so that ``paracore mcp`` can forward MCP clients' tool calls
    to this Revit, through the same approvals and undo as the chat (docs/MCP.md). Read at startup."""

    @field_validator("model", "base_url", "standards_folder", "export_folder", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url_is_http_without_credentials(cls, value: str | None) -> str | None:
        if value is None:
            return None
        problem = base_url_problem(value)
        if problem:
            raise ValueError(problem)
        return value.rstrip("/")

    @field_validator("script_folders")
    @classmethod
    def _clean_folders(cls, folders: list[str]) -> list[str]:
        cleaned = [f.strip() for f in folders if f and f.strip()]
        return list(dict.fromkeys(cleaned))  # drop duplicates, keep order

    @field_validator("qa_view_name_pattern", "qa_sheet_number_pattern")
    @classmethod
    def _compiles(cls, pattern: str) -> str:
        # Refused here, so that a bad pattern in the file falls back to the default (with a
        # warning) instead of failing every check_model call.
        try:
            re.compile(pattern)
        except re.error as error:
            raise ValueError(f"{pattern!r} is not a regular expression ({error})") from None
        return pattern

    @field_validator("pinned_toolsets")
    @classmethod
    def _known_toolsets(cls, names: list[str]) -> list[str]:
        return check_names(name.strip() for name in names if name and name.strip())

    def with_changes(self, **changes: Any) -> Settings:
        """A validated copy with some fields changed (``model_copy`` would skip validation)."""
        data = self.model_dump()
        for name, value in changes.items():
            data[name] = value.model_dump() if isinstance(value, BaseModel) else value
        return Settings.model_validate(data)


# --------------------------------------------------------------------------------------------
# Where the file lives
# --------------------------------------------------------------------------------------------

def config_dir() -> Path:
    """The folder of ``settings.json``: ``PARACORE_CONFIG_DIR`` or the user's config directory."""
    override = os.environ.get(CONFIG_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs  # imported here: settings must import fast and without side effects

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILENAME


# --------------------------------------------------------------------------------------------
# Load
# --------------------------------------------------------------------------------------------

@dataclass
class SettingsLoad:
    """What ``read_settings`` found: the settings to use and what the user should be told."""

    settings: Settings
    path: Path
    warnings: list[str] = field(default_factory=list)
    set_aside: Path | None = None
    """Where an unreadable file was moved to, if it was."""


def read_settings(path: Path | None = None) -> SettingsLoad:
    """Read the settings file; never raises for a bad file (defaults plus warnings instead)."""
    path = Path(path) if path is not None else settings_path()
    result = SettingsLoad(settings=Settings(), path=path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return result
    except OSError as error:
        result.warnings.append(f"Could not read the settings file {path} ({error.strerror or error}); "
                               "using the default settings.")
        return result
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("the file does not hold a JSON object")
    except ValueError as error:  # JSONDecodeError is a ValueError
        result.set_aside = _set_aside(path)
        where = f"; it was renamed to {result.set_aside.name}" if result.set_aside else ""
        result.warnings.append(f"The settings file {path} is damaged ({_short(error)}){where}. "
                               "Paracore uses the default settings; choose your provider again in Settings.")
        return result
    result.settings = _validate_leniently(data, result.warnings)
    return result


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults; problems are logged as warnings, never raised."""
    loaded = read_settings(path)
    for warning in loaded.warnings:
        log.warning("%s", warning)
    return loaded.settings


def _validate_leniently(data: dict[str, Any], warnings: list[str]) -> Settings:
    """Validate, dropping what cannot be used (secrets, unknown names, invalid values) one by one."""
    data = _drop_secrets_and_unknowns(data, Settings, "", warnings)
    version = data.get("version")
    if isinstance(version, int) and version > SETTINGS_VERSION:
        warnings.append(f"The settings were saved by a newer Paracore (format {version}); "
                        "settings this version does not know are ignored.")
    data["version"] = SETTINGS_VERSION
    for _ in range(50):  # each pass drops at least one field, so this ends
        try:
            return Settings.model_validate(data)
        except ValidationError as error:
            if not _drop_invalid(data, error, warnings):
                break
    warnings.append("The settings could not be used; Paracore uses the defaults.")
    return Settings()


def _drop_secrets_and_unknowns(data: dict[str, Any], model: type[BaseModel], prefix: str,
                               warnings: list[str]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for name, value in data.items():
        where = f"{prefix}{name}"
        info = model.model_fields.get(name)
        nested = info.annotation if info is not None and isinstance(info.annotation, type) else None
        if looks_like_secret_name(name) or (_secret_names(value) and not _is_model(nested)):
            warnings.append(f"Ignored {where!r} in the settings file. {_NO_SECRETS_HINT} "
                            "Saving the settings removes it from the file.")
            continue
        if info is None:
            warnings.append(f"Ignored the unknown setting {where!r}.")
            continue
        if _is_model(nested) and isinstance(value, dict):
            value = _drop_secrets_and_unknowns(value, nested, f"{where}.", warnings)
        kept[name] = value
    return kept


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _drop_invalid(data: dict[str, Any], error: ValidationError, warnings: list[str]) -> bool:
    dropped = False
    for problem in error.errors():
        location = [part for part in problem["loc"] if isinstance(part, str)]
        if not location:
            continue
        container, name = data, location[0]
        for part in location[1:]:
            if not isinstance(container.get(name), dict):
                break
            container, name = container[name], part
        if name in container:
            del container[name]
            warnings.append(f"The setting {'.'.join(location)!r} is invalid ({problem['msg']}); "
                            "using its default.")
            dropped = True
    return dropped


def _set_aside(path: Path) -> Path | None:
    """Move the damaged file to ``settings.json.corrupt-<time>`` (``-2``, ``-3``, ... when that name is
    taken: a second damaged file in the same second keeps the first one's backup)."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    for number in range(1, 1000):
        target = path.with_name(f"{path.name}.corrupt-{stamp}" + (f"-{number}" if number > 1 else ""))
        try:
            _move_to_a_new_name(path, target)
            return target
        except FileExistsError:
            continue
        except OSError as error:
            log.warning("Could not set aside the damaged settings file %s: %s", path, error)
            return None
    log.warning("Could not set aside the damaged settings file %s: 999 backups of this second exist", path)
    return None


def _move_to_a_new_name(path: Path, target: Path) -> None:
    """Rename ``path`` to ``target``, FileExistsError if ``target`` exists: a hard link (made only
    where no file is, even by another process at the same moment) then the old name removed. Where
    the folder cannot hold hard links (some network shares), a rename that checks first."""
    try:
        os.link(path, target)
    except FileExistsError:
        raise
    except OSError:
        if target.exists():
            raise FileExistsError(target) from None
        os.replace(path, target)
        return
    os.unlink(path)


def _short(error: Exception) -> str:
    return str(error).split("\n", 1)[0][:120]


# --------------------------------------------------------------------------------------------
# Save
# --------------------------------------------------------------------------------------------

class SettingsError(Exception):
    """The settings could not be saved; the message says why and what to do."""


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (temp file + ``os.replace``). Returns the file's path.

    The payload is re-validated from the model's own dump, and refused if any name in it looks
    like a credential, so nothing smuggled in by ``model_copy`` reaches the disk.
    """
    path = Path(path) if path is not None else settings_path()
    payload = Settings.model_validate(settings.model_dump()).model_dump(mode="json")
    leaked = _secret_names(payload)
    if leaked:  # unreachable unless someone adds such a field; checked anyway, cheaply
        raise SettingsError(f"Refusing to save {', '.join(leaked)}: {_NO_SECRETS_HINT}")
    text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)
    except OSError as error:
        raise SettingsError(f"Could not save the settings to {path} ({error.strerror or error}). "
                            "Check that the folder is writable, or set PARACORE_CONFIG_DIR.") from error
    return path
