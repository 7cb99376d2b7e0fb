/**
 * The other party of a transaction, from its narration: UPI (`UPI/<RRN or P2A/P2M>/<name>/<VPA
 * or bank>/...`), NEFT/IMPS/RTGS (`NEFT-<ref>-<name>-...`, `IMPS/P2A/<rrn>/<name>/...`) and
 * ACH/NACH (`ACH D- <name>-...`). `key` identifies the party (its VPA when there is one).
 */
export interface Counterparty {
  key: string;
  name: string;
  vpa?: string;
}

const SKIP = new Set(["UPI", "P2A", "P2M", "DR", "CR", "IMPS", "NEFT", "RTGS", "MMT", ""]);
const REFERENCE = /^[A-Z]{0,6}\d{6,}$/;

function clean(name: string): string {
  return name.replace(/\s+/g, " ").trim().toUpperCase();
}

export function counterpartyOf(narration: string | null): Counterparty | null {
  if (!narration) return null;
  const text = narration.trim();
  const upper = text.toUpperCase();
  if (upper.startsWith("UPI/") || upper.startsWith("UPI-") || upper.startsWith("IMPS/")) {
    const parts = text.split(/[/-]/).map((part) => part.trim());
    const vpa = parts.find((part) => /^[\w.-]+@[\w.-]+$/.test(part));
    const name = parts.find((part) => !SKIP.has(part.toUpperCase()) && !REFERENCE.test(part.toUpperCase()) && !part.includes("@"));
    if (!name) return vpa ? { key: vpa.toLowerCase(), name: vpa.toLowerCase(), vpa: vpa.toLowerCase() } : null;
    return { key: (vpa ?? name).toLowerCase(), name: clean(name), ...(vpa ? { vpa: vpa.toLowerCase() } : {}) };
  }
  const rail = /^(NEFT|RTGS|IMPS)[-/ ]([^-/]*)[-/]([^-/]+)/i.exec(text);
  if (rail) {
    const name = clean(rail[3] as string);
    return name ? { key: name.toLowerCase(), name } : null;
  }
  const ach = /\b(?:ACH|NACH)\s*[DC]\s*-\s*(?:RETURN-)?([^-]+)/i.exec(text);
  if (ach) {
    const name = clean(ach[1] as string);
    return name ? { key: name.toLowerCase(), name } : null;
  }
  return null;
}
