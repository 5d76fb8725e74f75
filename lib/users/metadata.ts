import { z } from "zod";
import { AppError } from "../errors";
import type { JsonObject } from "../json/deep-merge";
import { refuseProtoKeys } from "../json/proto-keys";

export const METADATA_LIMITS = {
  publicMetadata: 512,
  privateMetadata: 4096,
  unsafeMetadata: 512,
} as const;

export type MetadataBag = keyof typeof METADATA_LIMITS;
export const METADATA_BAGS = Object.keys(METADATA_LIMITS) as MetadataBag[];

/**
 * `__proto__` is refused at any depth: the bags are read by SDKs and app code that
 * may merge them naively, and unsafeMetadata is written by end-users.
 */
export const metadataBagSchema = refuseProtoKeys(z.record(z.string(), z.json())).meta({ description: "Free-form JSON object." });

/** A bag for PATCH: the same, but any value may be null (which deletes the key). */
export const metadataPatchSchema = metadataBagSchema;

export function metadataBytes(bag: JsonObject): number {
  return Buffer.byteLength(JSON.stringify(bag), "utf8");
}

/** Throws 400 metadata_too_large naming the first bag whose UTF-8 JSON exceeds its limit. */
export function assertMetadataFits(bags: Partial<Record<MetadataBag, JsonObject>>): void {
  for (const bag of METADATA_BAGS) {
    const value = bags[bag];
    if (value === undefined) continue;
    const size = metadataBytes(value);
    if (size > METADATA_LIMITS[bag]) {
      throw new AppError("metadata_too_large", `${bag} is ${size} bytes; the limit is ${METADATA_LIMITS[bag]}.`, {
        fieldErrors: [{ field: bag, code: "too_big", message: `must be at most ${METADATA_LIMITS[bag]} bytes` }],
      });
    }
  }
}
