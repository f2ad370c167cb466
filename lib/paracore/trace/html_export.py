"""A session's timeline as one self-contained web page (``Timeline.export("x.html")``).

Turns, model calls, tool calls with their arguments and results, replies — and the pictures a
tool showed the model, under the result that carried them, where the model saw them; and, last
in a turn, the picture of the working set drawn after it (a stand-in session run with pictures:
``paracore replay --pictures``, ``paracore sandbox --pictures``), captioned. Each
picture's bytes are written once, by hash, in one table at the end of the page; every place that
shows it refers to that entry (a session that pictures the same view twice carries it once). A
picture no longer in the store (``paracore.core.images``) shows its description instead. Secrets
are redacted as in every export; all text is escaped.
"""
from __future__ import annotations

import base64
import html
import json
from typing import Any

from paracore.core.images import ImageMissing, ImageStore, default_store
from paracore.trace.recorder import redact

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:70em;color:#222}
details{margin:.3em 0 .3em 1.2em}summary{cursor:pointer}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;border-radius:4px}
.error>summary{color:#b00020}.meta{color:#666}
figure{margin:.5em 0}figure img{max-width:100%;border:1px solid #ccc;cursor:zoom-in}
figcaption{color:#555;font-size:90%}
"""
_SCRIPT = """
for (const img of document.querySelectorAll('img[data-sha]')) {
  const data = PICTURES[img.dataset.sha];
  if (data) { img.src = data; img.onclick = () => window.open(data, '_blank'); }
}
"""


def render_html(timeline: Any, store: ImageStore | None = None) -> str:
    """The page for ``timeline`` (a ``paracore.trace.timeline.Timeline``)."""
    store = store or default_store()
    pictures: dict[str, str | None] = {}
    view = redact(timeline.to_view_model())
    body = [f"<h1>Paracore session {_e(view.get('session') or '')}</h1>",
            f"<p class=meta>Started {_e(view.get('started') or '?')} · {_e(_metrics(view.get('metrics') or {}))}</p>"]
    for entry in [*view.get("header", []), *view.get("entries", [])]:
        body.append(_entry(entry, pictures, store))
    table = {sha: data for sha, data in pictures.items() if data is not None}
    return ("<!doctype html><html><head><meta charset=utf-8><title>Paracore session "
            f"{_e(view.get('session') or '')}</title><style>{_STYLE}</style></head><body>"
            + "\n".join(body)
            + f"<script>const PICTURES={json.dumps(table)};{_SCRIPT}</script></body></html>\n")


def _entry(entry: dict, pictures: dict, store: ImageStore) -> str:
    status = entry.get("status") or ""
    title = f"<b>{_e(entry.get('title', ''))}</b> <span class=meta>{_e(entry.get('subtitle', ''))}" \
            + (f" · {_e(status)}" if status else "") + "</span>"
    parts = [f"<details class='{_e(entry.get('kind', ''))} {'error' if status == 'error' else ''}'"
             f"{'' if entry.get('collapsed') else ' open'}><summary>{title}</summary>"]
    for section in entry.get("sections", []):
        parts.append(f"<div><span class=meta>{_e(section.get('title', ''))}</span><pre>{_e(section.get('body', ''))}</pre></div>")
    for image in (entry.get("data") or {}).get("images", []):
        parts.append(_figure(image, pictures, store, _WHERE.get(entry.get("kind"), _WHERE["tool_call"])))
    parts += [_entry(child, pictures, store) for child in entry.get("children", [])]
    parts.append("</details>")
    return "".join(parts)


_WHERE = {"tool_call": "the model saw this picture with the result above",
          "turn_picture": "drawn after the turn for the record; the model did not see it"}


def _figure(image: dict, pictures: dict, store: ImageStore, where: str) -> str:
    sha = str(image.get("sha256", ""))
    caption = f"{image.get('description') or 'Picture'} ({image.get('width')}×{image.get('height')} px)"
    if sha not in pictures:
        try:
            data = store.get(sha)
            pictures[sha] = f"data:{image.get('media_type') or 'image/png'};base64,{base64.b64encode(data).decode()}"
        except (ImageMissing, ValueError):
            pictures[sha] = None
    if pictures[sha] is None:
        return f"<figure><figcaption>{_e(caption)} — the picture is no longer in this computer's store.</figcaption></figure>"
    return (f"<figure><img data-sha='{_e(sha)}' alt='{_e(caption)}' width='{int(image.get('width') or 0)}'>"
            f"<figcaption>{_e(caption)} — {_e(where)}.</figcaption></figure>")


def _metrics(metrics: dict) -> str:
    return (f"{metrics.get('turns', 0)} turns, {metrics.get('model_calls', 0)} model calls, "
            f"{metrics.get('tool_calls', 0)} tool calls, {metrics.get('input_tokens', 0)} input and "
            f"{metrics.get('output_tokens', 0)} output tokens, ${metrics.get('cost_usd', 0)}")


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)
