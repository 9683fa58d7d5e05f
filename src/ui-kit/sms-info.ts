/** Characters and SMS segments of a text, by the GSM-7 / UCS-2 rules carriers bill by. */
import { SegmentedMessage } from 'sms-segments-calculator';
import { TEXT_BODY_MAX } from '../contract/endpoints.js';

export interface SmsInfo {
  characters: number;
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
  /** Longer than the service's assumed body limit (see docs/api-assumptions.md). */
  tooLong: boolean;
}

export function smsInfo(text: string): SmsInfo {
  if (text.length === 0) return { characters: 0, segments: 0, encoding: 'GSM-7', tooLong: false };
  const message = new SegmentedMessage(text, 'auto');
  return {
    characters: message.numberOfUnicodeScalars,
    segments: message.segmentsCount,
    encoding: message.encodingName === 'UCS-2' ? 'UCS-2' : 'GSM-7',
    tooLong: text.length > TEXT_BODY_MAX,
  };
}
