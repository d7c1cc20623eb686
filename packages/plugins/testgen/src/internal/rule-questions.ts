import { detectLanguage, fold, isStopword, words } from "./language.js";
import type { Material, Question, QuestionAsk } from "./questions.js";
import { T } from "./rule-texts.js";

const DEFINITION: Readonly<Record<"es" | "en", RegExp>> = {
  es: /^(?<term>[^,;:()«»"]{3,70}?)\s+(?<verb>es|son|se define como|se denomina|consiste en|se basa en)\s+(?<rest>.{15,})$/iu,
  en: /^(?<term>[^,;:()"]{3,70}?)\s+(?<verb>is|are|refers to|means|consists of)\s+(?<rest>.{15,})$/iu,
};
const ARTICLE = /^(el|la|los|las|un|una|unos|unas|the|a|an)$/i;
const NOT_A_SUBJECT = /^(ademas|tambien|cuando|donde|also|when|where)$/;

/** A definition's subject starts with an article or a content word, not "Para", "En", "Si" ... */
const startsLikeANoun = (term: string): boolean => {
  const first = fold(words(term)[0] ?? "");
  return ARTICLE.test(first) || !(isStopword(first) || NOT_A_SUBJECT.test(first));
};
const PRONOUN =
  /^(esto|esta|este|estos|estas|ello|eso|it|this|that|these|those|they|there|which|lo que|la que|el que)\b/i;

/** A deterministic shuffle seeded by an FNV-1a hash of `key` (same material, same questions). */
const shuffle = <T>(items: T[], key: string): T[] => {
  let s = 2166136261;
  for (let i = 0; i < key.length; i++) s = Math.imul(s ^ key.charCodeAt(i), 16777619);
  s = s >>> 0 || 1;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/** A list item's bullet or number. */
const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+/;

/** Headings and title lines (no closing punctuation, few words) are not sentences. */
const isSentence = (s: string) => {
  const n = words(s).length;
  return s.length >= 40 && s.length <= 360 && n >= 6 && (/[.!?…:;»"]$/.test(s) || n >= 12);
};

const splitSentences = (m: Material): Array<{ text: string; source: string | undefined }> =>
  m.text
    .replace(/\r/g, "")
    // A line ending in a lower-case letter or a comma, followed by one starting in lower case, is a wrapped line.
    .replace(/([\p{Ll},])[ \t]*\n[ \t]*(?=\p{Ll})/gu, "$1 ")
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}¿¡"«(])/u)
    .map((s) => s.replace(BULLET, "").replace(/\s+/g, " ").trim())
    .filter(isSentence)
    .map((text) => ({ text, source: m.source }));

/** A folded word that can be a keyword: 4 letters or more, not a function word of either language, not a number. */
const isKeyword = (f: string): boolean => f.length >= 4 && !isStopword(f) && !/^\d+$/.test(f);
const contentTerms = (text: string): string[] => words(text).map(fold).filter(isKeyword);

/** A sentence without its final period (an option's text). */
const noDot = (s: string) => s.replace(/[.]$/, "");

const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  const inter = [...a].filter((x) => b.has(x)).length;
  return inter / (a.size + b.size - inter || 1);
};

/**
 * Review questions built without an LLM: key sentences of the material (scored by keyword weight,
 * overlap with the topic and definitional form, kept diverse) become definition questions ("¿Qué es
 * X?"), cloze questions with distractors drawn from the material's other keywords, or explanation
 * questions (hard); without material, varied questions about the topic. Deterministic.
 */
export const ruleQuestions = (ask: QuestionAsk): Question[] => {
  const materialText = ask.material.map((m) => m.text).join("\n");
  const lang = detectLanguage(ask.material.length > 0 ? materialText : ask.topic);
  const t = T[lang];
  const topicTerms = new Set(contentTerms(ask.topic));
  const tf = new Map<string, number>();
  const display = new Map<string, string>();
  for (const w of words(`${ask.topic}\n${materialText}`)) {
    const f = fold(w);
    if (!isKeyword(f)) continue;
    tf.set(f, (tf.get(f) ?? 0) + 1);
    if (!display.has(f) || w === w.toLowerCase()) display.set(f, w);
  }
  const weight = (term: string) => Math.log(1 + (tf.get(term) ?? 0)) * (term.length >= 7 ? 1.3 : 1);

  const sentences = ask.material
    .flatMap(splitSentences)
    .filter((x, i, all) => all.findIndex((y) => y.text === x.text) === i)
    .map(({ text, source }) => {
      const terms = new Set(contentTerms(text));
      const m = DEFINITION[lang].exec(text.replace(/[.!?]$/, ""));
      const raw = m?.groups?.term?.trim();
      const term =
        raw && /^\p{Lu}\p{Ll}/u.test(raw) && ARTICLE.test(words(raw)[0] ?? "")
          ? raw[0]!.toLowerCase() + raw.slice(1)
          : raw;
      const definition =
        m?.groups && term && !PRONOUN.test(term) && words(term).length <= 8 && startsLikeANoun(term)
          ? { term, plural: /^(son|are)$/i.test(m.groups.verb!), rest: m.groups.rest!.trim() }
          : undefined;
      let score = [...terms].reduce((sum, x) => sum + weight(x), 0) / Math.sqrt(terms.size || 1);
      for (const x of terms) if (topicTerms.has(x)) score += 2;
      return { text, source, terms, definition, score: definition ? score + 2 : score };
    });

  const df = new Map<string, number>();
  for (const x of sentences) for (const term of x.terms) df.set(term, (df.get(term) ?? 0) + 1);
  const verbLike = (w: string) => /(ando|iendo|mente|ing|ly)$/.test(fold(w));
  const used = new Set<string>();

  type Sentence = (typeof sentences)[number];
  const chosen: Sentence[] = [];
  // The best sentences, each sharing at most half its terms with one chosen before.
  for (const s of [...sentences].sort((a, b) => b.score - a.score))
    if (chosen.length < ask.count && !chosen.some((c) => jaccard(c.terms, s.terms) > 0.5)) chosen.push(s);

  const keywords = [...tf.keys()]
    .filter((k) => !topicTerms.has(k))
    .sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  /** A question (on a sentence, when given): multiple choice with `options`, else open with `answer` as model answer. */
  const on = (s: Sentence | undefined, q: string, answer?: string, options: string[] = []): Question => ({
    question: q,
    type: options.length > 0 ? "multiple_choice" : "open",
    difficulty: ask.difficulty,
    options,
    correct_index: options.length > 0 ? options.indexOf(answer!) : undefined,
    correct_answer: answer,
    explanation: s ? t.from(s.text) : undefined,
    source: s?.source,
  });

  /** The question on the `i`-th chosen sentence: definition, explanation (every other one for hard) or cloze. */
  const questionOn = (s: Sentence, i: number): Question => {
    if (s.definition && ask.difficulty !== "hard") {
      const { term, plural, rest } = s.definition;
      if (ask.type === "open") return on(s, t.what(term, plural), rest);
      const others = sentences
        .filter((o) => o !== s && !fold(o.text).includes(fold(term)))
        .map((o) => o.definition?.rest ?? o.text)
        .filter((x, i, all) => all.indexOf(x) === i)
        .slice(0, 3);
      if (others.length >= 2)
        return on(s, t.which(term), noDot(rest), shuffle([rest, ...others], s.text).map(noDot));
    }
    if (ask.difficulty === "hard" && ask.type === "open" && i % 2 === 0) return on(s, t.explain(s.text));
    // Cloze: blank a keyword specific to the sentence (central ones for easy), not a topic word, not used before.
    const inSentence = [...new Set(words(s.text).filter((w) => s.terms.has(fold(w)) && fold(w).length >= 5))];
    const rank = (w: string) =>
      (topicTerms.has(fold(w)) ? 100 : 0) +
      (used.has(fold(w)) ? 50 : 0) +
      (verbLike(w) ? 20 : 0) +
      (ask.difficulty === "easy" ? -(tf.get(fold(w)) ?? 0) : (df.get(fold(w)) ?? 0)) -
      w.length / 20;
    const answer = inSentence.sort((a, b) => rank(a) - rank(b))[0];
    if (!answer) return on(s, t.explain(s.text));
    used.add(fold(answer));
    // A word is letters, digits, ' and -: nothing to escape in a pattern.
    const cloze = s.text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${answer}(?![\\p{L}\\p{N}])`, "u"), "_____");
    if (ask.type === "multiple_choice") {
      const distractors = keywords
        .filter((k) => k !== fold(answer) && !s.terms.has(k) && !verbLike(k))
        .sort((a, b) => Math.abs(a.length - answer.length) - Math.abs(b.length - answer.length))
        .slice(0, 3)
        .map((k) => display.get(k) ?? k);
      if (distractors.length >= 2)
        return on(s, t.fill(cloze), answer, shuffle([answer, ...distractors], s.text));
    }
    return on(s, t.fill(cloze), answer);
  };
  const questions = chosen.map(questionOn);

  // Not enough key sentences: relations between the material's keywords, then questions on the topic.
  const top = keywords.slice(0, 8).map((k) => display.get(k) ?? k);
  for (let i = 0; questions.length < ask.count && i + 1 < top.length && i < 6; i += 2) {
    const [a, b] = [top[i]!, top[i + 1]!];
    const both = sentences.find((s) => s.terms.has(fold(a)) && s.terms.has(fold(b)));
    questions.push(on(both, t.relation(a, b), both?.text));
  }
  const templates = t.topic;
  const offset = { easy: 0, medium: 2, hard: 4 }[ask.difficulty];
  for (let i = 0; questions.length < ask.count && i < templates.length; i++)
    questions.push(on(undefined, templates[(i + offset) % templates.length]!(ask.topic.trim())));
  return questions.slice(0, ask.count);
};
