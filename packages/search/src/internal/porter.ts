/**
 * The Porter (1980) stemming algorithm, transcribed from Martin Porter's reference C implementation
 * (tartarus.org/martin/PorterStemmer), including its two documented departures from the paper
 * (`bli` -> `ble`, `logi` -> `log`). SQLite's FTS5 `porter` tokenizer and Lucene's `PorterStemFilter`
 * implement the same algorithm, so stems match what those engines index.
 *
 * Only lowercase ASCII words are stemmed; anything else (digits, other scripts) is returned unchanged.
 */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  return new PorterStemmer(word).stem();
}

class PorterStemmer {
  private readonly b: string[];
  /** Index of the last character of the current word. */
  private k: number;
  /** General offset into the word, set by `ends`. */
  private j = 0;

  constructor(word: string) {
    this.b = word.split("");
    this.k = word.length - 1;
  }

  stem(): string {
    this.step1ab();
    if (this.k > 0) {
      this.step1c();
      this.step2();
      this.step3();
      this.step4();
      this.step5();
    }
    return this.b.slice(0, this.k + 1).join("");
  }

  /** True when b[i] is a consonant ("y" is a consonant at the start or after a vowel). */
  private cons(i: number): boolean {
    switch (this.b[i]) {
      case "a":
      case "e":
      case "i":
      case "o":
      case "u":
        return false;
      case "y":
        return i === 0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** The measure m of b[0..j]: the number of vowel-consonant sequences, [C](VC){m}[V]. */
  private m(): number {
    let n = 0;
    let i = 0;
    const j = this.j;
    for (;;) {
      if (i > j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  /** True when b[0..j] contains a vowel. */
  private vowelInStem(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  /** True when b[j-1..j] is a double consonant. */
  private doubleC(j: number): boolean {
    if (j < 1) return false;
    if (this.b[j] !== this.b[j - 1]) return false;
    return this.cons(j);
  }

  /** True when b[i-2..i] is consonant-vowel-consonant and the last consonant is not w, x or y. */
  private cvc(i: number): boolean {
    if (i < 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return ch !== "w" && ch !== "x" && ch !== "y";
  }

  /** True when b[0..k] ends with `s`; sets j to the index before the suffix. */
  private ends(s: string): boolean {
    const length = s.length;
    if (length > this.k + 1) return false;
    for (let i = 0; i < length; i++) {
      if (this.b[this.k - length + 1 + i] !== s[i]) return false;
    }
    this.j = this.k - length;
    return true;
  }

  /** Replaces b[j+1..k] with `s`. */
  private setTo(s: string): void {
    const start = this.j + 1;
    for (let i = 0; i < s.length; i++) this.b[start + i] = s[i]!;
    this.k = this.j + s.length;
  }

  private r(s: string): void {
    if (this.m() > 0) this.setTo(s);
  }

  /** Plurals and -ed or -ing. */
  private step1ab(): void {
    if (this.b[this.k] === "s") {
      if (this.ends("sses")) this.k -= 2;
      else if (this.ends("ies")) this.setTo("i");
      else if (this.b[this.k - 1] !== "s") this.k--;
    }
    if (this.ends("eed")) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends("ed") || this.ends("ing")) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends("at")) this.setTo("ate");
      else if (this.ends("bl")) this.setTo("ble");
      else if (this.ends("iz")) this.setTo("ize");
      else if (this.doubleC(this.k)) {
        this.k--;
        const ch = this.b[this.k];
        if (ch === "l" || ch === "s" || ch === "z") this.k++;
      } else {
        this.j = this.k;
        if (this.m() === 1 && this.cvc(this.k)) this.setTo("e");
      }
    }
  }

  /** Terminal y to i when there is another vowel in the stem. */
  private step1c(): void {
    if (this.ends("y") && this.vowelInStem()) this.b[this.k] = "i";
  }

  /** Double suffixes to single ones, when m > 0. */
  private step2(): void {
    const pairs = STEP2[this.b[this.k - 1] ?? ""];
    if (!pairs) return;
    for (const [suffix, replacement] of pairs) {
      if (this.ends(suffix)) {
        this.r(replacement);
        return;
      }
    }
  }

  /** -ic-, -full, -ness etc., when m > 0. */
  private step3(): void {
    const pairs = STEP3[this.b[this.k] ?? ""];
    if (!pairs) return;
    for (const [suffix, replacement] of pairs) {
      if (this.ends(suffix)) {
        this.r(replacement);
        return;
      }
    }
  }

  /** -ant, -ence etc., in context <c>vcvc<v>. */
  private step4(): void {
    const suffixes = STEP4[this.b[this.k - 1] ?? ""];
    if (!suffixes) return;
    let found = false;
    for (const suffix of suffixes) {
      if (this.ends(suffix)) {
        if (suffix === "ion") {
          const ch = this.b[this.j];
          if (this.j < 0 || (ch !== "s" && ch !== "t")) return;
        }
        found = true;
        break;
      }
    }
    if (found && this.m() > 1) this.k = this.j;
  }

  /** Removes a final -e when m > 1, and -ll to -l when m > 1. */
  private step5(): void {
    this.j = this.k;
    if (this.b[this.k] === "e") {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    // As in the reference implementation, m() here still measures up to the original end.
    if (this.b[this.k] === "l" && this.doubleC(this.k) && this.m() > 1) this.k--;
  }
}

const STEP2: Record<string, ReadonlyArray<readonly [string, string]>> = {
  a: [
    ["ational", "ate"],
    ["tional", "tion"],
  ],
  c: [
    ["enci", "ence"],
    ["anci", "ance"],
  ],
  e: [["izer", "ize"]],
  l: [
    ["bli", "ble"],
    ["alli", "al"],
    ["entli", "ent"],
    ["eli", "e"],
    ["ousli", "ous"],
  ],
  o: [
    ["ization", "ize"],
    ["ation", "ate"],
    ["ator", "ate"],
  ],
  s: [
    ["alism", "al"],
    ["iveness", "ive"],
    ["fulness", "ful"],
    ["ousness", "ous"],
  ],
  t: [
    ["aliti", "al"],
    ["iviti", "ive"],
    ["biliti", "ble"],
  ],
  g: [["logi", "log"]],
};

const STEP3: Record<string, ReadonlyArray<readonly [string, string]>> = {
  e: [
    ["icate", "ic"],
    ["ative", ""],
    ["alize", "al"],
  ],
  i: [["iciti", "ic"]],
  l: [
    ["ical", "ic"],
    ["ful", ""],
  ],
  s: [["ness", ""]],
};

const STEP4: Record<string, readonly string[]> = {
  a: ["al"],
  c: ["ance", "ence"],
  e: ["er"],
  i: ["ic"],
  l: ["able", "ible"],
  n: ["ant", "ement", "ment", "ent"],
  o: ["ion", "ou"],
  s: ["ism"],
  t: ["ate", "iti"],
  u: ["ous"],
  v: ["ive"],
  z: ["ize"],
};
