/** Calendar arithmetic on day numbers (days since 1970-01-01), in India's time zone. */

const IST_OFFSET_MS = 5.5 * 3600_000;
const DAY_MS = 86400_000;

/** The IST calendar day of an instant (epoch milliseconds). */
export function istDayOfTime(time: number): number {
  return Math.floor((time + IST_OFFSET_MS) / DAY_MS);
}

export function dayOfDate(date: string): number {
  return Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

/** [year, month (1-12), day] of a day number (integer arithmetic, no Date: this runs per transaction). */
export function civil(day: number): [number, number, number] {
  // Howard Hinnant's civil_from_days.
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

export function isoDateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Monday ... 6 = Sunday. */
export function weekday(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** ISO-8601 week and week-year of a day. */
export function isoWeek(day: number): { week: number; year: number; monday: number } {
  const monday = day - weekday(day);
  const thursday = monday + 3;
  const [year] = civil(thursday);
  const firstThursday = dayOfDate(`${year}-01-04`) - weekday(dayOfDate(`${year}-01-04`)) + 3;
  return { week: Math.floor((thursday - firstThursday) / 7) + 1, year, monday };
}

/** Months are numbered year * 12 + (month - 1). */
export function monthIndex(day: number): number {
  const [year, month] = civil(day);
  return year * 12 + month - 1;
}

export function monthOf(index: number): { year: number; month: number } {
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function daysInMonth(index: number): number {
  const { year, month } = monthOf(index);
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function firstDayOfMonth(index: number): number {
  const { year, month } = monthOf(index);
  return Math.floor(Date.UTC(year, month - 1, 1) / DAY_MS);
}

/** Whole months from one day to another (vintage). */
export function wholeMonthsBetween(from: number, to: number): number {
  const [fy, fm, fd] = civil(from);
  const [ty, tm, td] = civil(to);
  return Math.max(0, (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0));
}
