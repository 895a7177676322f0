/** The longest name a member's account takes (members.name's check, supabase/schemas/01_members.sql). */
export const MEMBER_NAME_MAX_LENGTH = 100;
