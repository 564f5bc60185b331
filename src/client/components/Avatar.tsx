import type { UserSummary } from '../../shared/types';

// NodeBB's teaser and topic authors may carry a null picture.
type AvatarUser = Pick<UserSummary, 'username' | 'icon:text' | 'icon:bgColor'> & { picture: string | null; displayname?: string };

const SIZES = { xs: 20, sm: 28, md: 40, lg: 64, xl: 128 } as const;

/** A member's picture, or their letter on their colour when they have none. */
export function Avatar({ user, size = 'sm', className = '' }: { user: AvatarUser | null | undefined; size?: keyof typeof SIZES; className?: string }) {
  const px = SIZES[size];
  const name = user?.displayname || user?.username || '';
  const style = { width: px, height: px, fontSize: Math.round(px * 0.5), lineHeight: `${px}px` };
  if (user?.picture) {
    return <img className={`avatar avatar-${size} ${className}`} src={user.picture} alt={name} width={px} height={px} loading="lazy" style={style} />;
  }
  return (
    <span
      className={`avatar avatar-${size} avatar-text ${className}`}
      style={{ ...style, backgroundColor: user?.['icon:bgColor'] || '#6c757d' }}
      role="img"
      aria-label={name}
    >
      {user?.['icon:text'] || name.charAt(0).toUpperCase() || '?'}
    </span>
  );
}
