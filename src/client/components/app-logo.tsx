/** The product mark: a log book with a cog (same drawing as public/icons/icon.svg). Decorative: the name is text. */
export function AppLogo({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#1a3d70" />
      <rect x="15" y="11" width="34" height="42" rx="4" fill="#ffffff" />
      <rect x="15" y="11" width="7" height="42" rx="3" fill="#aac3e4" />
      <g fill="#1a3d70">
        {[0, 45, 90, 135, 180, 225, 270, 315].map((angle) => (
          <rect key={angle} x="33.5" y="20" width="5" height="6" rx="1" transform={`rotate(${angle} 36 32)`} />
        ))}
        <circle cx="36" cy="32" r="8.5" />
      </g>
      <circle cx="36" cy="32" r="3.5" fill="#ffffff" />
    </svg>
  );
}
