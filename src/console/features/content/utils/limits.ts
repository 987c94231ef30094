export { EMOJI_MAX } from '../../../../shared/contract';
