import { randomBytes } from "node:crypto";

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; content: string | Buffer };

/** A real multipart/form-data body, built by hand so that tests control every part and byte. */
export function multipart(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fiu-test-${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = "filename" in part ? `form-data; name="${part.name}"; filename="${part.filename}"` : `form-data; name="${part.name}"`;
    const type = "filename" in part ? `\r\nContent-Type: ${part.contentType}` : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer("content" in part ? part.content : "") ? (part as { content: Buffer }).content : Buffer.from("content" in part ? (part.content as string) : part.value));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

export const csvFile = (content: string | Buffer, filename = "consents.csv", contentType = "text/csv"): FormPart => ({ name: "file", filename, contentType, content });
export const jsonFile = (content: unknown, filename = "consents.json"): FormPart => ({
  name: "file",
  filename,
  contentType: "application/json",
  content: typeof content === "string" ? content : JSON.stringify(content),
});
