/** The rule-built questions' wording, per language. */
export const T = {
  es: {
    fill: (s: string) => `Completa la frase: «${s}»`,
    what: (term: string, plural: boolean) => `¿Qué ${plural ? "son" : "es"} ${term}?`,
    which: (term: string) => `¿Cuál de estas afirmaciones describe correctamente ${term}?`,
    explain: (s: string) => `Explica con tus palabras, y con un ejemplo, la siguiente afirmación: «${s}»`,
    relation: (a: string, b: string) => `¿Qué relación hay entre «${a}» y «${b}» según el material?`,
    from: (s: string) => `Según el material: «${s}»`,
    // Questions on the topic alone, when the material has too few key sentences (`t` is the topic).
    topic: [
      (t: string) => `¿Qué se entiende por ${t} y para qué se utiliza?`,
      (t: string) => `¿Cuáles son las ideas o componentes principales de ${t}?`,
      (t: string) => `Pon un ejemplo concreto de ${t} y explica cada uno de sus pasos.`,
      (t: string) => `¿Cuáles son las principales ventajas y limitaciones de ${t}?`,
      (t: string) => `Compara ${t} con otro enfoque que conozcas para el mismo tipo de problema.`,
      (t: string) => `Describe un problema real en el que aplicarías ${t} y justifica por qué.`,
      (t: string) => `¿Qué conceptos previos hacen falta para entender ${t}?`,
      (t: string) => `¿Qué parámetros o decisiones de diseño influyen más en el resultado de ${t}?`,
      (t: string) => `¿Cómo evaluarías si una solución basada en ${t} es buena?`,
      (t: string) => `¿Qué errores comunes se cometen al aplicar ${t}?`,
    ],
  },
  en: {
    fill: (s: string) => `Fill in the blank: "${s}"`,
    what: (term: string, plural: boolean) => `What ${plural ? "are" : "is"} ${term}?`,
    which: (term: string) => `Which of these statements correctly describes ${term}?`,
    explain: (s: string) => `Explain in your own words, with an example, the following statement: "${s}"`,
    relation: (a: string, b: string) => `According to the material, how are "${a}" and "${b}" related?`,
    from: (s: string) => `From the material: "${s}"`,
    topic: [
      (t: string) => `What is meant by ${t}, and what is it used for?`,
      (t: string) => `What are the main ideas or components of ${t}?`,
      (t: string) => `Give a concrete example of ${t} and explain each of its steps.`,
      (t: string) => `What are the main advantages and limitations of ${t}?`,
      (t: string) => `Compare ${t} with another approach you know for the same kind of problem.`,
      (t: string) => `Describe a real problem where you would apply ${t}, and justify why.`,
      (t: string) => `Which prior concepts are needed to understand ${t}?`,
      (t: string) => `Which parameters or design decisions most affect the outcome of ${t}?`,
      (t: string) => `How would you judge whether a solution based on ${t} is good?`,
      (t: string) => `What common mistakes are made when applying ${t}?`,
    ],
  },
} as const;
