const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
// Characters XML 1.0 cannot carry at all, even escaped.
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** The one escaping function of every XML document the service writes (text and attributes). */
export function escapeXml(value: string): string {
  return value.replace(XML_FORBIDDEN, "").replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] as string);
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** `<name>value</name>` for each pair, values escaped. */
export function xmlElements(pairs: ReadonlyArray<readonly [string, string]>): string {
  let out = "";
  for (const [name, value] of pairs) out += `<${name}>${escapeXml(value)}</${name}>`;
  return out;
}
