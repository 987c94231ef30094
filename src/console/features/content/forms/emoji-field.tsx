import type { FieldPath, FieldValues, Control, PathValue } from 'react-hook-form';
import { useController } from 'react-hook-form';
import { EMOJI_MAX } from '../utils/limits';
import { TextField } from '../../../components/ui/field';
import '../content.css';

const SUGGESTIONS = ['📘', '📗', '🚀', '🧭', '💡', '🛠️', '📐', '🔒'];

/** The emoji of a space: typed or picked from a few suggestions; empty means none. */
export function EmojiField<T extends FieldValues, O extends FieldValues>({
  control,
  name,
  disabled,
}: {
  control: Control<T, unknown, O>;
  name: FieldPath<T>;
  disabled?: boolean;
}) {
  const { field } = useController({ control, name });
  return (
    <div className="emoji-field">
      <TextField
        control={control}
        name={name}
        label="Emoji"
        placeholder="None"
        max={EMOJI_MAX}
        autoComplete="off"
        disabled={disabled}
        className="input input-emoji"
      />
      <div className="emoji-suggestions" role="group" aria-label="Suggested emoji">
        {SUGGESTIONS.map((emoji) => (
          <button
            key={emoji}
            type="button"
            className={`emoji-choice${field.value === emoji ? ' selected' : ''}`}
            aria-pressed={field.value === emoji}
            aria-label={`Use ${emoji}`}
            disabled={disabled}
            onClick={() => field.onChange(emoji as PathValue<T, FieldPath<T>>)}
          >
            {emoji}
          </button>
        ))}
        <button
          type="button"
          className="emoji-choice emoji-none"
          disabled={disabled || !field.value}
          onClick={() => field.onChange('' as PathValue<T, FieldPath<T>>)}
        >
          No emoji
        </button>
      </div>
    </div>
  );
}
