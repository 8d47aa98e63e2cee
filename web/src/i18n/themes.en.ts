/** Admin → Themes strings (kept apart from en.ts, which has a line limit). */
export const themesEn = {
  title: 'Themes',
  intro:
    'A theme recolours Dash and compatible dashboards. Upload a zip made with "dash theme pack", then apply it.',
  upload: 'Upload theme (.zip)…',
  uploadHint: 'Up to 20 MiB: theme.json, tokens.css, optional recipes.css, preview.png, README.md.',
  uploading: 'Upload progress',
  uploaded: (name: string) => `Theme "${name}" uploaded.`,
  apply: 'Apply',
  useDefault: "Use Dash's default look",
  builtIn: 'Built-in',
  active: 'Active',
  missing: 'Files missing',
  broken: 'Invalid files',
  noPreview: 'No preview',
  previewAlt: (name: string) => `Preview of ${name}`,
  by: (author: string) => `by ${author}`,
  deleteConfirm: (name: string) => `Delete theme ${name}?`,
};
