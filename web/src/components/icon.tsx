import type { CSSProperties } from 'react';
import { ICON_PATHS, isIconName } from '../lib/icon-paths.ts';

export interface IconProps {
  /** An icon name; unknown names (e.g. from data) fall back to an info icon. */
  name: string;
  size?: number;
  stroke?: number;
  color?: string;
  style?: CSSProperties;
  className?: string;
  /** When set, the icon is announced with this name; otherwise it is decorative. */
  title?: string;
}

export function Icon({ name, size = 16, stroke = 2, color = 'currentColor', style, className, title }: IconProps) {
  const paths = isIconName(name) ? ICON_PATHS[name] : ICON_PATHS['info-circle'];
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke={color}
      strokeWidth={stroke}
      strokeLinecap="round"
      strokeLinejoin="round"
      style={{ flex: 'none', ...style }}
      className={className}
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      focusable="false"
    >
      {title ? <title>{title}</title> : null}
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
