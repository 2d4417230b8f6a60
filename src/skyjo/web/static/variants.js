// The rule variants, as the server declares them once (skyjo.rules.VARIANTS, handed on in the
// facts' `variants`): each has a name (the rules' field), a wording key (a label `PAGE.KEY`, a
// choice's word `KEY.CHOICE` in the language tables), a default, and its choices or bounds.
// The pages build their options and summaries from them instead of naming each variant.
import { h } from "./dom.js";
import { FACTS } from "./facts.js";

export const VARIANTS = FACTS.variants ?? [];

/** The official rules: each variant's default, by name. */
export function defaultRules() {
  return Object.fromEntries(VARIANTS.map((v) => [v.name, v.default]));
}

/** `rules` as a request sends them: each number variant's value as a number. */
export function requestRules(rules) {
  return Object.fromEntries(VARIANTS.map((v) => [v.name, v.choices ? rules[v.name] : Number(rules[v.name])]));
}

/** The words of `rules` for a summary ("rules.summary"): by wording key, a number as it is,
 * a choice in `word`'s language (`KEY.CHOICE`). */
export function ruleWords(rules, word) {
  return Object.fromEntries(VARIANTS.map((v) => [v.key, v.choices ? word(`${v.key}.${rules[v.name]}`) : rules[v.name]]));
}

/** A labelled input per variant, which writes into `rules`: a number within its bounds or a
 * select of its choices. `label` words a variant's key (`front.target`); `prefix` starts each
 * input's data-key; `word` words a choice; `onNumber` reads a typed number. */
export function variantInputs(rules, { label, word, prefix = "", onNumber = (v, text) => text }) {
  return VARIANTS.map((v) => h("label", {}, label(v.key), " ", v.choices
    ? h("select", { "data-key": `${prefix}${v.key}`, onchange: (e) => { rules[v.name] = e.target.value; } },
      v.choices.map((c) => h("option", { value: c, selected: c === rules[v.name] }, word(`${v.key}.${c}`))))
    : h("input", { type: "number", min: v.min, max: v.max, inputmode: "numeric", value: rules[v.name],
      "data-key": `${prefix}${v.key}`, oninput: (e) => { rules[v.name] = onNumber(v, e.target.value); } })));
}
