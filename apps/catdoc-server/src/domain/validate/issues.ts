/**
 * Validation codes (contract), the shape of a validation item, and the report.
 */

/** What each check means; the table docs and tool descriptions are written from. */
export const VALIDATION_CHECKS = {
  DUPLICATE_ID: {
    severity: "error",
    description:
      "Two categories, functors or natural transformations share an id, or an object or morphism id is defined twice in the project.",
  },
  MISSING_IDENTITY: {
    severity: "error",
    description: "An object has no identity morphism (an endomorphism marked metadata.isIdentity: true, else one with id id-<object>).",
  },
  UNDEFINED_ENDPOINT: { severity: "error", description: "A morphism's source or target is not an object of its category." },
  FUNCTOR_UNKNOWN_CATEGORY: { severity: "error", description: "A functor's source or target category does not exist." },
  FUNCTOR_UNMAPPED_OBJECT: { severity: "error", description: "An object of the source category has no image under the functor." },
  FUNCTOR_UNKNOWN_OBJECT: {
    severity: "error",
    description:
      "The object mapping sends an object to one that is not in the target category (or maps an id that is not in the source category).",
  },
  FUNCTOR_UNMAPPED_MORPHISM: {
    severity: "error",
    description:
      "A morphism of the source category has no image under the functor; candidateIds names the target arrows between its mapped endpoints.",
  },
  FUNCTOR_UNKNOWN_MORPHISM: {
    severity: "error",
    description:
      "The morphism mapping sends a morphism to one that is not in the target category (or maps an id that is not in the source category).",
  },
  FUNCTOR_MORPHISM_MISMATCH: { severity: "error", description: "F(f) does not go F(source f) → F(target f)." },
  FUNCTOR_IDENTITY_NOT_PRESERVED: { severity: "error", description: "F(id_A) is not the identity of F(A)." },
  FUNCTOR_COMPOSITION: {
    severity: "error",
    description: "F(g∘f) is not F(g)∘F(f): the functor maps a composite to another arrow than the composite of the images.",
  },
  COMPOSITE_UNKNOWN_MORPHISM: {
    severity: "error",
    description: "A morphism's composite: [f, g, …] names an id that is not a morphism of its category.",
  },
  COMPOSITE_NOT_COMPOSABLE: {
    severity: "error",
    description: "A morphism's composite path does not compose (an arrow does not start where the one before it ends).",
  },
  COMPOSITE_ENDPOINT_MISMATCH: { severity: "error", description: "A morphism's composite path does not go from its source to its target." },
  COMPOSITE_CONFLICT: { severity: "error", description: "Two morphisms declare the same composite: [f, g]." },
  NT_UNKNOWN_FUNCTOR: { severity: "error", description: "A natural transformation's source or target functor does not exist." },
  NT_FUNCTOR_MISMATCH: { severity: "error", description: "The two functors do not share source and target categories." },
  NT_MISSING_COMPONENT: { severity: "error", description: "An object A of the functors' source category has no component η_A." },
  NT_UNKNOWN_COMPONENT: {
    severity: "error",
    description:
      "A component morphism is not in the target category (or a component is given for an id that is not an object of the source category).",
  },
  NT_COMPONENT_TYPE: { severity: "error", description: "η_A does not go F(A) → G(A)." },
  EMPTY_CATEGORY: { severity: "warning", description: "A category has no objects." },
  MISSING_COMPOSITION: {
    severity: "warning",
    description: "No morphism A → C for composable non-identity pairs f: A → B, g: B → C (one item per A → C, naming every pair).",
  },
  AMBIGUOUS_COMPOSITION: {
    severity: "warning",
    description: "Several parallel arrows A → C could be g∘f and none declares composite: [f, g].",
  },
  FUNCTOR_COMPOSITION_AMBIGUOUS: {
    severity: "warning",
    description:
      "F(g)∘F(f) is ambiguous in the target category (parallel arrows, no declared composite), so F(g∘f) = F(g)∘F(f) cannot be checked.",
  },
  NT_SQUARE_OPEN: {
    severity: "warning",
    description: "For f: A → B, there is no morphism F(A) → G(B) for η_B∘F(f) and G(f)∘η_A to compose to.",
  },
  SUSPECT_LINK: {
    severity: "warning",
    description:
      "A reviewed link (morphism, functor object mapping, NT component) whose end's document changed since its review, or that a suspect link reaches through a composition, a functor or a natural transformation; catdoc review clears it.",
  },
} as const;

export type ValidationCode = keyof typeof VALIDATION_CHECKS;
export type ValidationErrorCode = {
  [K in ValidationCode]: (typeof VALIDATION_CHECKS)[K]["severity"] extends "error" ? K : never;
}[ValidationCode];
export type ValidationWarningCode = Exclude<ValidationCode, ValidationErrorCode>;

export const VALIDATION_CODES = Object.keys(VALIDATION_CHECKS) as ValidationCode[];

/**
 * Errors that say a functor or natural transformation is not complete yet (an object or morphism
 * not mapped, a component missing), not that it breaks a law: authoring saves them as gaps to
 * fill in one by one, and a trace follows what a partial structure does map.
 */
export const GAP_CODES: ReadonlySet<ValidationCode> = new Set<ValidationCode>([
  "FUNCTOR_UNMAPPED_OBJECT",
  "FUNCTOR_UNMAPPED_MORPHISM",
  "NT_MISSING_COMPONENT",
]);

/** The ids an item concerns (those that apply). */
export interface IssueIds {
  categoryId?: string;
  functorId?: string;
  naturalTransformationId?: string;
  objectId?: string;
  morphismId?: string;
  /** Further objects, in diagram order (MISSING_COMPOSITION: [A, B, C]; NT_SQUARE_OPEN: [A, B]). */
  objectIds?: string[];
  /** Further morphisms (MISSING_COMPOSITION: [f, g], the path order of g∘f). */
  morphismIds?: string[];
  /** Every pair [f, g] an item stands for, when there are several (MISSING_COMPOSITION per A → C, FUNCTOR_COMPOSITION per F(h)). */
  pairs?: string[][];
  /**
   * AMBIGUOUS_COMPOSITION, FUNCTOR_COMPOSITION_AMBIGUOUS: the parallel arrows g∘f (or F(g)∘F(f))
   * could be; FUNCTOR_COMPOSITION: [F(g)∘F(f)], the arrow F(g∘f) should be; FUNCTOR_UNMAPPED_MORPHISM:
   * the target arrows F(f) may be (candidate-images.ts), empty when none exists yet.
   */
  candidateIds?: string[];
  /** SUSPECT_LINK: the link (`f`, `F/A`, `η/A`; change-impact/links.ts) and the objects whose documents changed. */
  linkId?: string;
  documentIds?: string[];
}

export interface ValidationIssue extends IssueIds {
  code: ValidationCode;
  severity: "error" | "warning";
  message: string;
}

export interface ValidationSummary {
  categoriesChecked: number;
  functorsChecked: number;
  naturalTransformationsChecked: number;
  totalErrors: number;
  totalWarnings: number;
}

export interface ValidationReport {
  isValid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  summary: ValidationSummary;
}

/** Collects items while checks run; ids with undefined values are left out. */
export class IssueCollector {
  readonly errors: ValidationIssue[] = [];
  readonly warnings: ValidationIssue[] = [];

  add(code: ValidationCode, message: string, ids: IssueIds): void {
    const severity = VALIDATION_CHECKS[code].severity;
    const issue: ValidationIssue = { code, severity, message };
    // Assigned in place, in the ids' order (a large project adds tens of thousands of issues).
    const target = issue as unknown as Record<string, unknown>;
    for (const key of Object.keys(ids) as (keyof IssueIds)[]) {
      const value = ids[key];
      if (value !== undefined) target[key] = value;
    }
    (severity === "error" ? this.errors : this.warnings).push(issue);
  }

  report(checked: Omit<ValidationSummary, "totalErrors" | "totalWarnings">): ValidationReport {
    return {
      isValid: this.errors.length === 0,
      errors: this.errors,
      warnings: this.warnings,
      summary: { ...checked, totalErrors: this.errors.length, totalWarnings: this.warnings.length },
    };
  }
}
