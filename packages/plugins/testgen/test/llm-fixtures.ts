/** The recorded OpenAI chat completion (reference section 6.2, openai-python snapshots) with `content` replaced. */
export const completion = (
  content: string | null,
  extra: { finish_reason?: string; refusal?: string; tool_calls?: unknown } = {},
) => ({
  id: "chatcmpl-ABfvbtVnTu5DeC4EFnRYj8mtfOM99",
  object: "chat.completion",
  created: 1727346143,
  model: "gpt-4o-2024-08-06",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content,
        refusal: extra.refusal ?? null,
        ...(extra.tool_calls ? { tool_calls: extra.tool_calls } : {}),
      },
      logprobs: null,
      finish_reason: extra.finish_reason ?? "stop",
    },
  ],
  usage: {
    prompt_tokens: 79,
    completion_tokens: 14,
    total_tokens: 93,
    completion_tokens_details: { reasoning_tokens: 0 },
  },
  system_fingerprint: "fp_5050236cbd",
});

/** The recorded refusal (reference 6.2). */
export const refusal = completion(null, { refusal: "I'm very sorry, but I can't assist with that." });

/** Questions as a well-behaved model returns them. */
export const openQuestions = (n: number) =>
  JSON.stringify({
    questions: Array.from({ length: n }, (_, i) => ({
      question: `¿Pregunta ${i + 1} sobre metaheurísticas?`,
      difficulty: "medium",
      options: [],
      correct_index: null,
      answer: `Respuesta modelo ${i + 1}`,
      explanation: `Según el material [1], ${i + 1}.`,
    })),
  });

/** Multiple-choice questions. */
export const mcQuestions = (n: number, correct = 2) =>
  JSON.stringify({
    questions: Array.from({ length: n }, (_, i) => ({
      question: `¿Qué algoritmo usa una población? (${i + 1})`,
      difficulty: "easy",
      options: ["Búsqueda local", "Enfriamiento simulado", "Algoritmo genético", "Búsqueda tabú"],
      correct_index: correct,
      answer: "Algoritmo genético",
      explanation: "Los algoritmos genéticos mantienen una población de soluciones [1].",
    })),
  });

/** llama.cpp's rejection of json_schema (as mirrored in reference 6.3), in the OpenAI error envelope. */
export const jsonSchemaRejected = {
  error: {
    message: 'response_format type must be one of "text" or "json_object", but got: json_schema',
    type: "invalid_request_error",
    param: null,
    code: null,
  },
};

/** Course material used across tests. */
export const MATERIAL =
  "Una metaheurística es un método de búsqueda de alto nivel que guía heurísticas subordinadas para explorar el espacio de soluciones. " +
  "La búsqueda local mejora una solución explorando su vecindario hasta alcanzar un óptimo local. " +
  "Los algoritmos genéticos mantienen una población de soluciones que evoluciona mediante selección, cruce y mutación. " +
  "El enfriamiento simulado acepta soluciones peores con una probabilidad que disminuye con la temperatura. " +
  "La búsqueda tabú utiliza una memoria a corto plazo para prohibir movimientos recientes y evitar ciclos.";
