/**
 * Text as a search compares it: case and accents set aside, so that "renee" finds "Renée" and "zoe"
 * finds "Zoë" (staff at a front desk type plain letters). Letters that are not a base letter with a
 * mark ("ß", "ø") stay as they are.
 */
const MARKS = /\p{M}/gu;

export const searchFold = (text: string): string => text.normalize('NFD').replace(MARKS, '').toLowerCase();
