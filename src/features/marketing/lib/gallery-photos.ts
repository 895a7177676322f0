/** The six gallery photos of spec section 1, in order, with their captions. */
export const GALLERY = [
  { file: 'weight-training', caption: 'Weight Training', alt: 'A loaded barbell resting on a squat rack under warm light' },
  { file: 'personal-training', caption: 'Personal Training', alt: 'A coach guiding a member through a dumbbell squat' },
  { file: 'community-moments', caption: 'Community Moments', alt: 'Five members celebrating together with their arms raised' },
  { file: 'outdoor-experiences', caption: 'Outdoor Experiences', alt: 'A runner on a park path at sunrise' },
  { file: 'female-sessions', caption: 'Female Sessions', alt: 'Two women training, one with a kettlebell and one in a balance pose' },
  { file: 'coaching-in-action', caption: 'Coaching in Action', alt: 'A coach with a clipboard watching a member hold a push-up' },
] as const;
