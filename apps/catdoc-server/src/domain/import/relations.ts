/**
 * What a reference says about the two documents: the verb written before it (`covers @req-login`,
 * `Implements: [[Sync protocol]]`, `depends on [store](./store.md)`), read into the name of the
 * morphism the import makes. The verb counts when it stands in the same sentence at most four
 * words before the reference, or before an earlier reference of a list (`covers @a, @b and @c`).
 * A passive form turns the arrow around: `covered by @test-login` in req-login's document is the
 * arrow test-login → req-login named `covers`. Without a verb the arrow is named `references`.
 */

/** A relation the import recognises, with the name its morphisms get. */
export interface Relation {
  /** The morphism name: `covers`, `depends on`… */
  name: string;
  /** Written in the passive (`covered by`): the arrow goes from the reference to the document. */
  inverse: boolean;
}

/** The name of morphisms whose reference has no verb before it. */
export const PLAIN_RELATION = "references";

/** name → active forms, passive forms (regex sources, lower case). */
const VOCABULARY: ReadonlyArray<readonly [string, readonly string[], readonly string[]]> = [
  ["covers", ["covers?"], ["covered by"]],
  ["implements", ["implements?", "implementation of"], ["implemented by"]],
  ["tests", ["tests", "test of"], ["tested by"]],
  ["verifies", ["verif(?:y|ies)", "validates?"], ["verified by", "validated by"]],
  ["satisfies", ["satisf(?:y|ies)", "fulfil(?:l?s)?"], ["satisfied by", "fulfill?ed by"]],
  ["refines", ["refines?", "elaborates?"], ["refined by", "elaborated by"]],
  ["derives from", ["derives? from", "derived from"], []],
  ["depends on", ["depends? on", "requires", "needs"], ["required by", "needed by"]],
  ["extends", ["extends?"], ["extended by"]],
  ["builds on", ["builds? on", "built on"], []],
  ["realizes", ["reali[sz]es?"], ["reali[sz]ed by"]],
  ["uses", ["uses"], ["used by"]],
];

/** Regex group name → relation, one group per form. */
const FORMS = new Map<string, Relation>();
const ALTERNATIVES: string[] = [];
function addForms(name: string, forms: readonly string[], inverse: boolean): void {
  for (const form of forms) {
    const group = `f${FORMS.size}`;
    ALTERNATIVES.push(`(?<${group}>${form})`);
    FORMS.set(group, { name, inverse });
  }
}
for (const [name, active, passive] of VOCABULARY) {
  addForms(name, active, false);
  addForms(name, passive, true);
}

/** The last verb, then at most four words, an optional colon, then the end of the text. */
const VERB_BEFORE = new RegExp(
  `^[\\s\\S]*(?<![\\p{L}\\p{N}_-])(?:${ALTERNATIVES.join("|")})(?![\\p{L}\\p{N}_-])(?:[ \\t\\n]*:)?(?:[ \\t\\n]+[\\p{L}\\p{N}'’-]+){0,4}[ \\t\\n]*:?[ \\t\\n]*$`,
  "iu",
);
/** What may stand between two references of one list. */
const LIST_GLUE = /^[ \t\n]*(?:,|;|\/|&|\band\b|\bor\b|,[ \t\n]*and\b|,[ \t\n]*or\b)?[ \t\n]*$/iu;
/** Where a sentence (or list item, heading, paragraph) starts over. */
const BOUNDARY = /[.!?]\s|\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+[.)]|#{1,6})[ \t]/g;

/** How far back a verb is looked for. */
const LOOK_BACK = 160;

/**
 * The relation of each reference, given where each starts and ends in `prose` (in order of
 * position): the verb before it, else the previous reference's when only list glue lies between.
 */
export function relationsAt(prose: string, spans: ReadonlyArray<{ start: number; end: number }>): Array<Relation | undefined> {
  const out: Array<Relation | undefined> = [];
  let previousEnd = 0;
  let previous: Relation | undefined;
  for (const { start, end } of spans) {
    let from = Math.max(previousEnd, start - LOOK_BACK);
    const window = prose.slice(from, start);
    let cut = 0;
    for (const match of window.matchAll(BOUNDARY)) cut = match.index + match[0].length;
    from += cut;
    const between = prose.slice(from, start);
    const verb = VERB_BEFORE.exec(between);
    let relation: Relation | undefined;
    if (verb?.groups !== undefined) {
      const key = Object.keys(verb.groups).find((k) => verb.groups?.[k] !== undefined);
      relation = key === undefined ? undefined : FORMS.get(key);
    } else if (previous !== undefined && cut === 0 && from === previousEnd && LIST_GLUE.test(between)) {
      relation = previous;
    }
    out.push(relation);
    previous = relation;
    previousEnd = end;
  }
  return out;
}

/** The morphism id of a relation between two objects: `covers--test-login--req-login`; `ref--a--b` without a verb. */
export function relationMorphismId(relation: string, source: string, target: string): string {
  const prefix = relation === PLAIN_RELATION ? "ref" : relation.replace(/\s+/g, "-");
  return `${prefix}--${source}--${target}`;
}
