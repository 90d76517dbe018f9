import type { TranslatedText } from '../db/models';

export type Language = 'en' | 'cn';

/** `X-Language`: `en` or `cn` (case-insensitive); anything else, or nothing, is English. */
export function languageOf(header: string | undefined): Language {
  return header?.trim().toLowerCase() === 'cn' ? 'cn' : 'en';
}

/** The text in `language`, falling back to English when that translation is missing. */
export function translate(text: TranslatedText, language: Language): string {
  if (language === 'cn' && text.cn) return text.cn;
  return text.en;
}
