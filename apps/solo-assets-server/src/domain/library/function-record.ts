/**
 * A function as the library keeps it. `FunctionRecord` is the current state (the latest save);
 * `VersionRecord` is one save, kept forever. The gate's report is part of the metadata.
 */
import type { FunctionStatus, GateReport } from "../gate/gate-report.js";

/** `{"input": {kwarg: value}, "expected": value}` (the original Solo-MCP format) or an assert statement. */
export type TestCase = { input: Record<string, unknown>; expected?: unknown } | string;

export interface FunctionMetadata {
  gate: GateReport;
  /** What the embedding step did for this version. */
  embedding: { model: string; dimension: number } | { error: string };
  /** The process that saved it. */
  saved_by: { pid: number; host: string };
}

export interface FunctionRecord {
  id: number;
  name: string;
  version: number;
  status: FunctionStatus;
  code: string;
  description: string;
  signature: string;
  docstring: string;
  tags: string[];
  dependencies: string[];
  testCases: TestCase[];
  metadata: FunctionMetadata;
  createdAt: string;
  updatedAt: string;
}

/** What search results show of a function: its record without code, test cases and metadata. */
export type FunctionSummaryRecord = Omit<FunctionRecord, "code" | "testCases" | "metadata">;

export interface VersionRecord {
  name: string;
  version: number;
  status: FunctionStatus;
  code: string;
  /** The code as submitted, before the W/I fixes. */
  submittedCode: string;
  description: string;
  signature: string;
  tags: string[];
  dependencies: string[];
  testCases: TestCase[];
  metadata: FunctionMetadata;
  createdAt: string;
}
