"""Exports: sheets and views out of the model as files (PDF, DWG, DXF), and the model to IFC or NWC.

The shared machinery, and how a format's tool uses it:

- ``choice``: ``ExportChoiceArgs`` (a tool's args model inherits it: sheets by number, name or
  range such as 'A101-A105' or ['all'], views by name, a saved view/sheet set, or none for the
  working set's sheets and views) and ``chosen_views(ctx, args)``, the views to export in order,
  or a refusal listing the valid choices (bounded). ``label(view)`` names one ("A101 - Plans").
- ``destination``: ``destination(ctx.doc, args.folder, load_settings().export_folder)``, the folder
  (the tool's folder, the export_folder setting, beside the model, or Documents); its
  ``claim(stem, suffix)`` gives each file a Windows-safe name that overwrites nothing (a numbered
  sibling) and fits the 260-character path limit; ``safe_stem`` makes a name safe.
- ``export_job``: the tool returns ``ExportJob(fmt, noun, pieces, destination, describe=...)``,
  one ``Piece(label, export)`` per sheet or view; ``export()`` runs on Revit's main thread, claims
  its names, calls Document.Export and returns the paths it wrote (raise to fail that piece: the
  others still run, and the result names it and why). Declare the tool
  ``@tool(working_set_policy="none", writes_files=True, runs_in_steps=True)``.

Why a job of pieces (tools/framework/jobs.py): in Revit the chat pane is a modeless window on
Revit's UI thread, where tools run inside an ExternalEvent handler. A loop over 50 sheets inside one
handler would freeze the pane until it ended: no progress drawn, Stop not clickable. So the tool
call only plans (choose the views, the folder, the options), and the agent runs each piece as a
main-thread request of its own: between two pieces Revit draws the pane (the tool card shows
"3/50: A103 - Sections"), MCP clients get a progress notification, and the turn's cancel token is
read. What was exported before a cancel is kept and listed.

- ``pdf_tools``: export_pdf (Document.Export with PDFExportOptions, one sheet per Export);
  ``pdf_combine``: the combined PDF put together from the sheets' own PDFs (pypdf, a bookmark per
  sheet), so a combined set exports each sheet once; ``pdf_files``: a PDF's pages.
- ``cad_tools``: export_cad, DWG or DXF one file per sheet or view (DWG/DXFExportOptions, the model's
  export setups); ``model_tools``: export_model, the model or one view's elements to IFC or NWC.
"""
