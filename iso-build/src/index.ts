export { checkPersonalization, PersonalizationError, type Personalization } from './personalization.js';
export { personalizeIso, streamPersonalizedIso } from './personalize.js';
