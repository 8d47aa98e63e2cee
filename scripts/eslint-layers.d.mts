import type { Rule } from 'eslint';

export const LAYERS: Record<string, { may: string[]; types?: string[] }>;
export function layerOf(rel: string): string | undefined;
export function mayImport(from: string, to: string, typeOnly: boolean): boolean;
export const downwardRule: Rule.RuleModule;
export const layersPlugin: { rules: { downward: Rule.RuleModule } };
