/** Wire shapes of the dashboard's small reads (the node poll is front-view.ts). */
import { Type, type Static } from 'typebox';

/** GET /api/front/brand. */
export const BrandSchema = Type.Object({
  logo_url: Type.String(),
  page_title: Type.String(),
  topbar_text: Type.String(),
  /** This Dash runs an agent for its own host (older servers omit it). */
  local_agent: Type.Optional(Type.Boolean()),
});
export type Brand = Static<typeof BrandSchema>;

/** Item of GET /api/front/groups: a group and its visible node ids. */
export const FrontGroupSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  node_ids: Type.Array(Type.Integer()),
});
export type FrontGroup = Static<typeof FrontGroupSchema>;
