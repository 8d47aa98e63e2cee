const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * Release notes are plain text from the signed manifest; they become HTML with every character
 * escaped, so nothing in them can run in the admin's browser. Blank lines separate paragraphs,
 * lines starting with "- " or "* " become list items, "# " lines headings.
 */
export function renderNotes(version: string, notes: string): string {
  const out: string[] = [`<h2>Dash ${escapeHtml(version)}</h2>`];
  for (const block of notes.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    if (lines.every((l) => /^\s*[-*] /.test(l))) {
      const items = lines.map((l) => `<li>${escapeHtml(l.replace(/^\s*[-*] /, ''))}</li>`);
      out.push(`<ul>${items.join('')}</ul>`);
    } else if (lines.length === 1 && lines[0]?.startsWith('# ')) {
      out.push(`<h3>${escapeHtml(lines[0].slice(2))}</h3>`);
    } else {
      out.push(`<p>${lines.map(escapeHtml).join('<br>')}</p>`);
    }
  }
  return out.join('\n');
}
