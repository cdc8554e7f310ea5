/**
 * Constructors for filter trees (memoryd.v1.Filter), so that a condition reads
 * as `filters.eq("metadata.source", "chat")` instead of a nested oneof literal:
 *
 * ```ts
 * filter: filters.all(filters.eq("metadata.source", "chat"), filters.gte("metadata.priority", 2))
 * ```
 *
 * Each returns a Filter init shape, usable wherever a request takes `filter`.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ComparisonOperator, type FilterSchema, type FilterValueSchema } from "./gen/memoryd/v1/memory_pb.js";

/** A filter tree node, as a request's `filter` takes it. */
export type FilterInit = MessageInitShape<typeof FilterSchema>;
/** An operand: a string, number, boolean or point in time. */
export type Operand = string | number | boolean | Date;

function value(operand: Operand): MessageInitShape<typeof FilterValueSchema> {
  switch (typeof operand) {
    case "string":
      return { kind: { case: "stringValue", value: operand } };
    case "number":
      return { kind: { case: "numberValue", value: operand } };
    case "boolean":
      return { kind: { case: "boolValue", value: operand } };
    default:
      if (operand instanceof Date) {
        return { kind: { case: "timeValue", value: timestampFromDate(operand) } };
      }
      throw new TypeError(`a filter operand is a string, number, boolean or Date, got ${String(operand)}`);
  }
}

function condition(field: string, operator: ComparisonOperator, operands: readonly Operand[]): FilterInit {
  return { kind: { case: "condition", value: { field, operator, values: operands.map(value) } } };
}

/** `field` equals `operand`. */
export const eq = (field: string, operand: Operand): FilterInit => condition(field, ComparisonOperator.EQ, [operand]);
/** `field` is missing or differs from `operand`. */
export const ne = (field: string, operand: Operand): FilterInit => condition(field, ComparisonOperator.NE, [operand]);
/** `field` equals one of `operands`. */
export const isIn = (field: string, operands: readonly Operand[]): FilterInit =>
  condition(field, ComparisonOperator.IN, operands);
/** `field` is missing or equals none of `operands`. */
export const notIn = (field: string, operands: readonly Operand[]): FilterInit =>
  condition(field, ComparisonOperator.NOT_IN, operands);
/** `field` is greater than `operand`. */
export const gt = (field: string, operand: number | Date): FilterInit => condition(field, ComparisonOperator.GT, [operand]);
/** `field` is greater than or equal to `operand`. */
export const gte = (field: string, operand: number | Date): FilterInit =>
  condition(field, ComparisonOperator.GTE, [operand]);
/** `field` is less than `operand`. */
export const lt = (field: string, operand: number | Date): FilterInit => condition(field, ComparisonOperator.LT, [operand]);
/** `field` is less than or equal to `operand`. */
export const lte = (field: string, operand: number | Date): FilterInit =>
  condition(field, ComparisonOperator.LTE, [operand]);
/** `field` is present and not null. */
export const exists = (field: string): FilterInit => condition(field, ComparisonOperator.EXISTS, []);
/** Every one of `filters` matches. */
export const all = (...filters: FilterInit[]): FilterInit => ({ kind: { case: "all", value: { filters } } });
/** At least one of `filters` matches. */
export const any = (...filters: FilterInit[]): FilterInit => ({ kind: { case: "any", value: { filters } } });
/** `filter` does not match. */
export const not = (filter: FilterInit): FilterInit => ({ kind: { case: "not", value: filter } });
