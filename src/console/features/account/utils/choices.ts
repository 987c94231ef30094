import type { SelectOption } from '../../../components/ui/field';
import type { LinkChoice } from '../api/get-link-choices';

/**
 * The select's options: a prompt, then each provider with its organization (several organizations may name their
 * providers alike); those linked already are listed but cannot be chosen.
 */
export function linkChoiceOptions(choices: LinkChoice[], linked: ReadonlySet<string>): SelectOption[] {
  return [
    { value: '', label: 'Choose a provider…', disabled: true },
    ...choices.map(({ provider, organization }) => ({
      value: provider.id,
      label: `${provider.label} (${organization.title})${linked.has(provider.id) ? ' · linked' : ''}`,
      disabled: linked.has(provider.id),
    })),
  ];
}
