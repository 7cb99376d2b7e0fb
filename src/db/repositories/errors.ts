/** True when a Prisma call failed on a unique constraint (P2002) or a PostgreSQL 23505. */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } } | null;
  return candidate?.code === "P2002" || candidate?.code === "23505" || candidate?.cause?.code === "23505";
}

/** True when a Prisma update or delete found no row (P2025). */
export function isRecordMissing(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2025";
}
