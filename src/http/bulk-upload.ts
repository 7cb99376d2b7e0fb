import type { FastifyRequest } from "fastify";
import { invalidRequest, ServiceError } from "../domain/errors.ts";
import type { BulkUpload } from "../domain/bulk/service.ts";
import { BulkFileReader, detectFileType } from "../serialization/bulk-file.ts";

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const FIELD_NAMES = new Set(["reference_id", "tracking_id", "global_config", "globalConfig", "fiDataRangeFrom", "fiDataRangeTo", "configId"]);

export const fileTooLarge = (providedSize: number) =>
  new ServiceError(413, "FileTooLarge", "File exceeds the maximum size of 10 MB", { providedSize, maxSize: MAX_FILE_BYTES, maxSizeMB: 10 });

/**
 * Reads the multipart form as it arrives: the file is fed to its reader chunk by chunk (never
 * held whole) and cut at 10 MB; the text fields are collected.
 */
export async function readBulkUpload(request: FastifyRequest): Promise<BulkUpload> {
  if (!request.isMultipart()) throw new ServiceError(415, "UnsupportedMediaType", "This operation takes multipart/form-data");
  const fields: Record<string, string> = {};
  let upload: Omit<BulkUpload, "fields"> | undefined;
  const parts = request.parts({
    // One byte more than allowed, so that a file of exactly 10 MB passes and a larger one is seen.
    limits: { fileSize: MAX_FILE_BYTES + 1, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25 },
  });
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        if (!FIELD_NAMES.has(part.fieldname)) throw invalidRequest(`${part.fieldname} is not a field of this form`);
        if (typeof part.value !== "string") throw invalidRequest(`${part.fieldname} must be text`);
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== "file") throw invalidRequest(`the file must be sent in the field "file", not "${part.fieldname}"`);
      const fileType = detectFileType(part.mimetype, part.filename);
      const reader = new BulkFileReader(fileType);
      let received = 0;
      for await (const chunk of part.file) {
        received += (chunk as Buffer).length;
        if (received > MAX_FILE_BYTES) throw fileTooLarge(received);
        reader.write(chunk as Buffer);
      }
      if (part.file.truncated) throw fileTooLarge(received);
      upload = { rows: await reader.finish(), fileType, fileName: part.filename };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw fileTooLarge(MAX_FILE_BYTES + 1);
    if (code === "FST_FILES_LIMIT") throw invalidRequest("only one file may be uploaded");
    if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") throw invalidRequest("the form has too many fields");
    if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE" || code === "FST_PROTO_VIOLATION") throw invalidRequest("the multipart body is malformed");
    throw error;
  }
  if (!upload) throw invalidRequest("file is required");
  return { ...upload, fields };
}
