import { emojiSchema } from '../../../../shared/contract';

/** The contract states the emoji limit only inside its schema (no constant); read it from there, never repeat it. */
export const EMOJI_MAX: number | undefined = emojiSchema.maxLength ?? undefined;
