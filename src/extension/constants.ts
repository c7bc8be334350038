/** Keys and ids shared by the activation shell and the runtime (kept in a module with no dependencies). */

/** SecretStorage key of the API key. */
export const API_KEY_SECRET = 'jevPanel.apiKey';
/** globalState key of the chat model (`vendor/family`) the user allowed Jev to use. */
export const ALLOWED_CHAT_MODEL = 'jevPanel.allowedChatModel';
