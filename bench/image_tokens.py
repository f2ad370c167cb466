"""What one capture_view picture costs in input tokens, by each provider's published formula.

No model is called: the figures follow from the picture's size alone, through the formulas in
``paracore.llm.pictures`` (the same ones the context-window estimate uses), at capture_view's
default size and its bounds, for a plan's usual 4:3 and for a tall view.

Sources:
- Anthropic, "Vision" (https://docs.claude.com/en/docs/build-with-claude/vision): tokens =
  (width px × height px) / 750; pictures whose long edge exceeds 1568 px are scaled down first.
- OpenAI, "Images and vision" (https://platform.openai.com/docs/guides/images-vision), for the
  GPT-4o, GPT-4.1 and GPT-5 family at detail "high": fit in 2048 × 2048, scale the short side to
  768 px, then 85 base tokens + 170 per 512-px tile.
- Gemini, "Understand and count tokens" (https://ai.google.dev/gemini-api/docs/tokens): 258 tokens
  for a picture with both sides ≤ 384 px, else 258 per 768 × 768 tile.
"""
from __future__ import annotations

from paracore.llm.pictures import anthropic_image_tokens, gemini_image_tokens, openai_image_tokens
from paracore.tools.views.capture_tools import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE

SIZES = ((DEFAULT_SIZE, DEFAULT_SIZE * 3 // 4, "default, 4:3 plan"),
         (DEFAULT_SIZE // 2, DEFAULT_SIZE, "default, tall view (1:2)"),
         (MIN_SIZE, MIN_SIZE * 3 // 4, "smallest"),
         (MAX_SIZE, MAX_SIZE * 3 // 4, "largest"))


def rows() -> list[tuple[str, int, int, int, int, int]]:
    return [(label, width, height, anthropic_image_tokens(width, height), openai_image_tokens(width, height),
             gemini_image_tokens(width, height)) for width, height, label in SIZES]


def image_token_section() -> list[str]:
    lines = ["## Pictures: input tokens per capture_view picture", "",
             "By each provider's published formula (Anthropic: w×h/750 after fitting 1568 px; OpenAI, detail "
             "high: 85 + 170 per 512-px tile after fitting 2048 px and a 768-px short side; Gemini: 258 per "
             "768-px tile). Sources: Anthropic https://docs.claude.com/en/docs/build-with-claude/vision, OpenAI "
             "https://platform.openai.com/docs/guides/images-vision#calculating-costs (the GPT-4o, GPT-4.1 and GPT-5 "
             "family; the mini and nano models count 32-px patches instead), Gemini "
             "https://ai.google.dev/gemini-api/docs/tokens. The provider's reported usage, which the cost uses, "
             "includes them; the context-window estimate counts each picture at the largest of the three.", "",
             "| picture | pixels | Anthropic | OpenAI (high) | Gemini |", "|---|---|---:|---:|---:|"]
    for label, width, height, anthropic, openai, gemini in rows():
        lines.append(f"| {label} | {width}×{height} | {anthropic:,} | {openai:,} | {gemini:,} |")
    return [*lines, ""]


if __name__ == "__main__":
    print("\n".join(image_token_section()))
