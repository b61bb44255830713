"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/class-names";

/** The nav's links; the current section is marked (aria-current) for screen readers and by its underline. */
export function NavLinks({ items }: { items: { href: string; label: string }[] }) {
  const pathname = usePathname();
  const current = (href: string) =>
    href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return items.map((item) => (
    <Link
      key={item.href}
      href={item.href}
      aria-current={current(item.href) ? "page" : undefined}
      className={cn(
        "text-slate-800 underline-offset-4 hover:underline",
        "aria-[current=page]:font-semibold aria-[current=page]:text-slate-950 aria-[current=page]:underline",
      )}
    >
      {item.label}
    </Link>
  ));
}
