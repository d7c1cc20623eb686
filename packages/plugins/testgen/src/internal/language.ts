/** The words of a list, whitespace-separated (over several lines). */
const wordSet = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/));

/** Spanish and English function words: for language detection and for keyword extraction. */
const STOPWORDS = {
  es: wordSet(`a al algo algunas algunos ante antes como con contra cual cuales cuando de del desde donde dos el ella ellas ellos
    en entre era eran es esa esas ese eso esos esta estas este esto estos fue fueron ha han hay la las le les lo los mas
    me mi mis muy ni no nos o os otra otras otro otros para pero poco por porque que quien se sea ser si sin sobre son
    su sus tambien tanto te tiene tienen todo todos tu un una uno unos unas y ya cada puede pueden segun asi bien parte
    forma mediante través traves dentro tras sino aunque mismo misma mismos mismas tal tales vez veces estar siendo sido`),
  en: wordSet(`a about above after again all also an and any are as at be because been before being between both but by can could
    did do does doing down during each few for from further had has have having he her here hers him his how i if in into
    is it its itself just more most my no nor not now of off on once only or other our out over own same she should so
    some such than that the their them then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours may might must shall using used use`),
};

/** True for a folded function word of either language. */
export const isStopword = (folded: string): boolean => STOPWORDS.es.has(folded) || STOPWORDS.en.has(folded);

/** Lower case without accents (for comparing words). */
export const fold = (s: string): string => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Words of a text (letters and digits, accents kept). */
export const words = (s: string): string[] => s.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];

/** "es" or "en": whichever language's function words are more frequent; Spanish marks break ties. */
export const detectLanguage = (text: string): "es" | "en" => {
  // Spanish function words minus English ones (a word of both lists counts for neither).
  let lead = 0;
  for (const f of words(text).slice(0, 2000).map(fold))
    lead += Number(STOPWORDS.es.has(f)) - Number(STOPWORDS.en.has(f));
  if (lead !== 0) return lead > 0 ? "es" : "en";
  return /[áéíóúñ¿¡]/i.test(text) ? "es" : "en";
};
