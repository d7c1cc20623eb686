/** Questions on the topic alone, when the material has too few key sentences (`t` is the topic). */
export const TEMPLATES: Readonly<Record<"es" | "en", ReadonlyArray<(t: string) => string>>> = {
  es: [
    (t) => `¿Qué se entiende por ${t} y para qué se utiliza?`,
    (t) => `¿Cuáles son las ideas o componentes principales de ${t}?`,
    (t) => `Pon un ejemplo concreto de ${t} y explica cada uno de sus pasos.`,
    (t) => `¿Cuáles son las principales ventajas y limitaciones de ${t}?`,
    (t) => `Compara ${t} con otro enfoque que conozcas para el mismo tipo de problema.`,
    (t) => `Describe un problema real en el que aplicarías ${t} y justifica por qué.`,
    (t) => `¿Qué conceptos previos hacen falta para entender ${t}?`,
    (t) => `¿Qué parámetros o decisiones de diseño influyen más en el resultado de ${t}?`,
    (t) => `¿Cómo evaluarías si una solución basada en ${t} es buena?`,
    (t) => `¿Qué errores comunes se cometen al aplicar ${t}?`,
  ],
  en: [
    (t) => `What is meant by ${t}, and what is it used for?`,
    (t) => `What are the main ideas or components of ${t}?`,
    (t) => `Give a concrete example of ${t} and explain each of its steps.`,
    (t) => `What are the main advantages and limitations of ${t}?`,
    (t) => `Compare ${t} with another approach you know for the same kind of problem.`,
    (t) => `Describe a real problem where you would apply ${t}, and justify why.`,
    (t) => `Which prior concepts are needed to understand ${t}?`,
    (t) => `Which parameters or design decisions most affect the outcome of ${t}?`,
    (t) => `How would you judge whether a solution based on ${t} is good?`,
    (t) => `What common mistakes are made when applying ${t}?`,
  ],
};

/** The rule-built questions' wording, per language. */
export const T = {
  es: {
    fill: (s: string) => `Completa la frase: «${s}»`,
    what: (term: string, plural: boolean) => `¿Qué ${plural ? "son" : "es"} ${term}?`,
    which: (term: string) => `¿Cuál de estas afirmaciones describe correctamente ${term}?`,
    explain: (s: string) => `Explica con tus palabras, y con un ejemplo, la siguiente afirmación: «${s}»`,
    relation: (a: string, b: string) => `¿Qué relación hay entre «${a}» y «${b}» según el material?`,
    from: (s: string) => `Según el material: «${s}»`,
  },
  en: {
    fill: (s: string) => `Fill in the blank: "${s}"`,
    what: (term: string, plural: boolean) => `What ${plural ? "are" : "is"} ${term}?`,
    which: (term: string) => `Which of these statements correctly describes ${term}?`,
    explain: (s: string) => `Explain in your own words, with an example, the following statement: "${s}"`,
    relation: (a: string, b: string) => `According to the material, how are "${a}" and "${b}" related?`,
    from: (s: string) => `From the material: "${s}"`,
  },
} as const;
