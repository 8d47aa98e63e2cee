/** RFC 9110 media-type check: `application/json` with optional well-formed parameters. */

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t !-~\\x80-\\xff])*"';
const MEDIA_TYPE = new RegExp(
  `^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*)[ \\t]*$`,
);

export function isJsonMediaType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const m = MEDIA_TYPE.exec(header.trim());
  if (!m) return false;
  return (
    (m[1] as string).toLowerCase() === 'application' && (m[2] as string).toLowerCase() === 'json'
  );
}

/** `multipart/form-data` with parameters (the boundary), for the theme upload. */
export function isMultipartMediaType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const m = MEDIA_TYPE.exec(header.trim());
  if (!m) return false;
  return (
    (m[1] as string).toLowerCase() === 'multipart' && (m[2] as string).toLowerCase() === 'form-data'
  );
}
