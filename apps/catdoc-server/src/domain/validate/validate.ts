/**
 * Validation entry points: the whole project, or one category, functor or natural
 * transformation. Each returns the same report shape; unknown ids raise NOT_FOUND.
 */
import { requireCategory, requireFunctor, requireNaturalTransformation } from "../project-index.js";
import type { ProjectIndex } from "../project-index.js";
import { checkCategory } from "./categories.js";
import { checkFunctor } from "./functors.js";
import { IssueCollector } from "./issues.js";
import type { ValidationReport } from "./issues.js";
import { checkNaturalTransformation } from "./natural-transformations.js";

/** This module's URL: in the bundle, a content-hashed chunk (the validation cache keys entries by the code that checked). */
export const CHECKS_MODULE_URL = import.meta.url;

/** Every category, functor and natural transformation, in file order. */
export function validateProject(index: ProjectIndex): ValidationReport {
  const out = new IssueCollector();
  for (const entry of index.categoryList) checkCategory(index, entry, out);
  index.model.functors.forEach((functor, position) => checkFunctor(index, functor, position, out));
  index.model.naturalTransformations.forEach((nt, position) => checkNaturalTransformation(index, nt, position, out));
  return out.report({
    categoriesChecked: index.categoryList.length,
    functorsChecked: index.model.functors.length,
    naturalTransformationsChecked: index.model.naturalTransformations.length,
  });
}

/** The category checks of one category (every definition with that id). */
export function validateCategory(index: ProjectIndex, categoryId: string): ValidationReport {
  requireCategory(index, categoryId);
  const out = new IssueCollector();
  const entries = index.categoryList.filter((entry) => entry.category.id === categoryId);
  for (const entry of entries) checkCategory(index, entry, out);
  return out.report({ categoriesChecked: entries.length, functorsChecked: 0, naturalTransformationsChecked: 0 });
}

export function validateFunctor(index: ProjectIndex, functorId: string): ValidationReport {
  requireFunctor(index, functorId);
  const out = new IssueCollector();
  let checked = 0;
  index.model.functors.forEach((functor, position) => {
    if (functor.id !== functorId) return;
    checked += 1;
    checkFunctor(index, functor, position, out);
  });
  return out.report({ categoriesChecked: 0, functorsChecked: checked, naturalTransformationsChecked: 0 });
}

export function validateNaturalTransformation(index: ProjectIndex, id: string): ValidationReport {
  requireNaturalTransformation(index, id);
  const out = new IssueCollector();
  let checked = 0;
  index.model.naturalTransformations.forEach((nt, position) => {
    if (nt.id !== id) return;
    checked += 1;
    checkNaturalTransformation(index, nt, position, out);
  });
  return out.report({ categoriesChecked: 0, functorsChecked: 0, naturalTransformationsChecked: checked });
}
