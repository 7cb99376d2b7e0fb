/** Field-level problems in received data; `field` names where, as a path. */
export class FieldError extends Error {
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`${field} ${problem}`);
    this.name = "FieldError";
    this.field = field;
  }
}

const PLAIN_DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const EXPONENT_DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/;

function joinDecimal(sign: string, integer: string, fraction: string): string {
  const int = integer.replace(/^0+(?=\d)/, "") || "0";
  const out = fraction ? `${int}.${fraction}` : int;
  return sign === "-" && /[1-9]/.test(out) ? `-${out}` : out;
}

/**
 * An exact decimal string from what an FIP wrote: "+0020.50" -> "20.50", "1.5E3" -> "1500".
 * Trailing zeros are kept; nothing passes through binary floating point.
 */
export function exactDecimal(raw: unknown, field: string): string {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) throw new FieldError(field, "must be a decimal number");
    raw = String(raw);
  }
  if (typeof raw !== "string") throw new FieldError(field, "must be a decimal number");
  const text = raw.trim().replace(/,/g, "");
  const plain = PLAIN_DECIMAL.exec(text);
  if (plain) return joinDecimal(plain[1] ?? "", plain[2] ?? "0", plain[3] ?? "");
  const exp = EXPONENT_DECIMAL.exec(text);
  if (exp && (exp[2] || exp[3])) {
    const digits = `${exp[2] ?? ""}${exp[3] ?? ""}`;
    const point = (exp[2] ?? "").length + Number(exp[4]);
    const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0");
    const at = Math.max(point, 1);
    return joinDecimal(exp[1] ?? "", padded.slice(0, at), padded.slice(at).replace(/0+$/, ""));
  }
  throw new FieldError(field, `must be a decimal number, got "${text.slice(0, 40)}"`);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function realDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * An ISO 8601 date-time with an offset. Indian FIPs that omit the offset mean IST, so +05:30 is
 * added; a date-only value means midnight IST.
 */
export function isoDateTime(raw: unknown, field: string): string {
  if (typeof raw !== "string") throw new FieldError(field, "must be an ISO 8601 date-time");
  const text = raw.trim();
  if (DATE.test(text)) return isoDateTime(`${text}T00:00:00+05:30`, field);
  const match = DATE_TIME.exec(text);
  if (!match || !realDate(Number(match[1]), Number(match[2]), Number(match[3])) || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) {
    throw new FieldError(field, `must be an ISO 8601 date-time, got "${text.slice(0, 40)}"`);
  }
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const offset = !zone ? "+05:30" : zone === "Z" ? "Z" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s ?? "00"}${fraction ?? ""}${offset}`;
}

/** YYYY-MM-DD from a date or the date part of a date-time. */
export function isoDate(raw: unknown, field: string): string {
  if (typeof raw !== "string") throw new FieldError(field, "must be a date (YYYY-MM-DD)");
  const text = raw.trim().slice(0, 10);
  const match = DATE.exec(text);
  if (!match || !realDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw new FieldError(field, `must be a date (YYYY-MM-DD), got "${raw.trim().slice(0, 40)}"`);
  }
  return text;
}
