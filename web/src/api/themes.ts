import type { ThemeListItem, ThemeManifestWire } from '../../../src/protocol/theme';
import { request, uploadForm } from './http';

// Wire types are the server's own (src/protocol/theme.ts).
export type { ThemeListItem, ThemeManifestWire };

const BASE = '/api/admin/system/themes';

export function fetchThemes(signal?: AbortSignal): Promise<ThemeListItem[]> {
  return request<ThemeListItem[]>(`${BASE}/`, { signal });
}

export function applyTheme(id: string): Promise<void> {
  return request<void>(`${BASE}/${encodeURIComponent(id)}/apply`, { method: 'POST' });
}

export function deleteTheme(id: string): Promise<void> {
  return request<void>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Uploads a theme zip as the multipart field `file`; 201 answers the stored theme. */
export function uploadTheme(
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<ThemeListItem> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadForm<ThemeListItem>(`${BASE}/upload`, form, onProgress);
}

export function previewUrl(item: Pick<ThemeListItem, 'id' | 'updated_at'>): string {
  return `/theme/preview/${encodeURIComponent(item.id)}.png?v=${encodeURIComponent(item.updated_at ?? '')}`;
}
