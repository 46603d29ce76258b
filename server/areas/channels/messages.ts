// The interface's failure wording (its Errors table) for the operations the channel areas share.
export const ORGANIZATION_ID = 'organization_id missing or in wrong format';
export const OWNER_ID = 'owner_id missing or in wrong format';
export const USER_OR_ORGANIZATION = 'user_id or organization_id missing or in wrong format';
export const PAYLOAD = 'Payload missing or in wrong format';
export const PAYLOAD_INVALID = 'Payload missing or invalid';
export const CONFIGURATION_ID = 'configurationID payload missing or invalid';
/** "deviceID missing or in wrong format", and the same for mobileID and phoneID. */
export const idMessage = (name: string) => `${name} missing or in wrong format`;
