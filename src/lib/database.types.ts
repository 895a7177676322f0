// PROVISIONAL: hand-written from docs/data-contract.md until `npm run db:types` generates this
// file from supabase/migrations. Do not edit by hand once generated.
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export type Database = {
  public: {
    Tables: {
      members: {
        Row: {
          id: string;
          user_id: string | null;
          email: string;
          name: string | null;
          phone: string | null;
          profile_image_url: string | null;
          membership_tier: string;
          has_used_trial: boolean;
          trial_expires_at: string | null;
          plan_renews_at: string | null;
          is_admin: boolean;
          status: string;
          created_at: string;
        };
        Insert: {
          id?: string;
          user_id?: string | null;
          email: string;
          name?: string | null;
          phone?: string | null;
          profile_image_url?: string | null;
          membership_tier?: string;
          has_used_trial?: boolean;
          trial_expires_at?: string | null;
          plan_renews_at?: string | null;
          is_admin?: boolean;
          status?: string;
          created_at?: string;
        };
        Update: Partial<Database['public']['Tables']['members']['Insert']>;
        Relationships: [];
      };
      classes: {
        Row: {
          id: string;
          name: string;
          description: string | null;
          duration: number;
          start_time: string;
          trainer: string;
          type: string;
          capacity: number;
          current_bookings: number;
          spots_left: number;
          is_premium: boolean;
          unlock_for_standard: string;
          price_payg: number | null;
          checkout_url: string | null;
          created_at: string;
        };
        Insert: {
          id?: string;
          name: string;
          description?: string | null;
          duration?: number;
          start_time: string;
          trainer: string;
          type?: string;
          capacity?: number;
          is_premium?: boolean;
          unlock_for_standard?: string;
          price_payg?: number | null;
          checkout_url?: string | null;
        };
        Update: Partial<Database['public']['Tables']['classes']['Insert']>;
        Relationships: [];
      };
      bookings: {
        Row: {
          id: string;
          member_id: string;
          class_id: string;
          type: string;
          payment_status: string;
          booked_at: string;
          hold_expires_at: string | null;
        };
        Insert: {
          id?: string;
          member_id: string;
          class_id: string;
          type: string;
          payment_status?: string;
          booked_at?: string;
          hold_expires_at?: string | null;
        };
        Update: Partial<Database['public']['Tables']['bookings']['Insert']>;
        Relationships: [
          { foreignKeyName: 'bookings_member_id_fkey'; columns: ['member_id']; isOneToOne: false; referencedRelation: 'members'; referencedColumns: ['id'] },
          { foreignKeyName: 'bookings_class_id_fkey'; columns: ['class_id']; isOneToOne: false; referencedRelation: 'classes'; referencedColumns: ['id'] },
        ];
      };
    };
    Views: Record<never, never>;
    Functions: {
      book_class: { Args: { p_class_id: string; p_booking_type?: string | null }; Returns: Json };
      cancel_booking: { Args: { p_booking_id: string }; Returns: Json };
      admin_stats: { Args: Record<never, never>; Returns: Json };
      regenerate_timetable: { Args: { p_start: string; p_end: string }; Returns: Json };
      ensure_member: { Args: Record<never, never>; Returns: Database['public']['Tables']['members']['Row'] };
    };
    Enums: Record<never, never>;
    CompositeTypes: Record<never, never>;
  };
};
