import { flag, nullableText, object } from './field-builders';
import type { FieldDef } from './types';

/** A call-forward setting as the call manager stores it: where to, voice mail, and the CSS used. */
export const callForward = (title: string): FieldDef =>
  object(title, {
    destination: nullableText('Destination', { format: 'directory-number' }),
    forwardToVoiceMail: flag('Forward to Voice Mail', { default: false }),
    callingSearchSpaceName: nullableText('Calling Search Space', { names: true }),
  });
