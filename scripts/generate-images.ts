/**
 * Draws the home page's hero and gallery images for this project (pictogram figures in a studio
 * setting, in the brand palette) as SVG, and encodes them to WebP with Debian's chromium.
 * There is no stock photography offline; production serves real photos from the storage bucket
 * under the same file names (see src/features/marketing/images.ts).
 *
 *   npx tsx scripts/generate-images.ts        # writes public/images/*.webp
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

type P = [number, number];
type Pose = { head: P; neck: P; hip: P; arms: P[][]; legs: P[][] };

const OUT = fileURLToPath(new URL('../public/images/', import.meta.url));

/** An Olympic-pictogram style figure: round head, thick rounded limbs. */
function figure(pose: Pose, color: string, w = 26, extra = ''): string {
  const line = (pts: P[]) => `<polyline points="${pts.map((p) => p.join(',')).join(' ')}"/>`;
  return `<g stroke="${color}" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round" fill="none">
    ${line([pose.neck, pose.hip]).replace('<polyline', `<polyline stroke-width="${w * 1.35}"`)}
    ${pose.arms.map(line).join('')}${pose.legs.map(line).join('')}
  </g><circle cx="${pose.head[0]}" cy="${pose.head[1]}" r="${w * 0.82}" fill="${color}"/>${extra}`;
}

const defs = (id: string, stops: Array<[number, string]>, x2 = 0, y2 = 1) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${stops.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join('')}</linearGradient>`;

const glow = (id: string, color: string, opacity: number) =>
  `<radialGradient id="${id}"><stop offset="0" stop-color="${color}" stop-opacity="${opacity}"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`;

function svg(w: number, h: number, body: string, defsText: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><defs>${defsText}<filter id="blur"><feGaussianBlur stdDeviation="18"/></filter><filter id="soft"><feGaussianBlur stdDeviation="4"/></filter></defs>${body}</svg>`;
}

function plate(x: number, cy: number, w: number, h: number, fill: string, stroke = 'none') {
  return `<rect x="${x}" y="${cy - h / 2}" width="${w}" height="${h}" rx="${w / 2.5}" fill="${fill}" stroke="${stroke}" stroke-width="3"/>`;
}

function weightTraining() {
  const slats = Array.from({ length: 14 }, (_, i) => `<rect x="${i * 60}" y="0" width="30" height="470" fill="#fff" opacity="0.03"/>`).join(
    '',
  );
  const side = (mirror: boolean) => {
    const m = (x: number, w: number) => (mirror ? 800 - x - w : x);
    return (
      plate(m(150, 26), 250, 26, 200, '#0f172a', '#f97316') +
      plate(m(178, 20), 250, 20, 160, '#ea580c') +
      plate(m(200, 14), 250, 14, 110, '#e2e8f0')
    );
  };
  const dumbbell = (x: number, c: string) =>
    `<rect x="${x}" y="500" width="60" height="10" rx="5" fill="#94a3b8"/>${plate(x - 14, 505, 18, 44, c)}${plate(x + 56, 505, 18, 44, c)}`;
  return svg(
    800,
    600,
    `<rect width="800" height="600" fill="url(#bg)"/>${slats}<circle cx="620" cy="110" r="460" fill="url(#g)"/>
     <rect y="470" width="800" height="130" fill="url(#floor)"/><rect y="468" width="800" height="4" fill="#f97316" opacity="0.5"/>
     <polygon points="520,0 700,0 560,470 300,470" fill="#fed7aa" opacity="0.07" filter="url(#blur)"/>
     <rect x="236" y="110" width="18" height="362" rx="4" fill="#334155"/><rect x="546" y="110" width="18" height="362" rx="4" fill="#334155"/>
     <rect x="226" y="258" width="38" height="12" rx="3" fill="#475569"/><rect x="536" y="258" width="38" height="12" rx="3" fill="#475569"/>
     <ellipse cx="400" cy="372" rx="300" ry="12" fill="#000" opacity="0.35" filter="url(#soft)"/>
     <rect x="110" y="245" width="580" height="10" rx="5" fill="#cbd5e1"/>${side(false)}${side(true)}
     ${dumbbell(290, '#ea580c')}${dumbbell(450, '#0f172a')}<ellipse cx="400" cy="532" rx="220" ry="8" fill="#000" opacity="0.3"/>`,
    defs('bg', [
      [0, '#1e293b'],
      [1, '#0b1120'],
    ]) +
      defs('floor', [
        [0, '#1f2937'],
        [1, '#0b1120'],
      ]) +
      glow('g', '#f97316', 0.35),
  );
}

function personalTraining() {
  const client: Pose = {
    head: [342, 262],
    neck: [330, 296],
    hip: [262, 388],
    arms: [
      [
        [330, 300],
        [392, 318],
        [446, 312],
      ],
    ],
    legs: [
      [
        [262, 388],
        [352, 396],
        [340, 478],
      ],
      [
        [262, 388],
        [372, 404],
        [376, 478],
      ],
    ],
  };
  const coach: Pose = {
    head: [566, 196],
    neck: [566, 236],
    hip: [566, 352],
    arms: [
      [
        [566, 242],
        [520, 262],
        [470, 262],
      ],
      [
        [566, 242],
        [600, 300],
        [590, 346],
      ],
    ],
    legs: [
      [
        [566, 352],
        [548, 414],
        [544, 478],
      ],
      [
        [566, 352],
        [586, 414],
        [594, 478],
      ],
    ],
  };
  const db = `<rect x="436" y="296" width="20" height="34" rx="6" fill="#0f172a" stroke="#fdba74" stroke-width="3"/>`;
  return svg(
    800,
    600,
    `<rect width="800" height="600" fill="url(#bg)"/><circle cx="180" cy="120" r="420" fill="url(#g)"/>
     <rect y="480" width="800" height="120" fill="url(#floor)"/><rect x="150" y="478" width="300" height="12" rx="6" fill="#ea580c" opacity="0.85"/>
     <ellipse cx="330" cy="486" rx="120" ry="8" fill="#000" opacity="0.35"/><ellipse cx="570" cy="486" rx="70" ry="7" fill="#000" opacity="0.35"/>
     ${figure(client, '#fff7ed')}${db}${figure(coach, '#fdba74')}`,
    defs('bg', [
      [0, '#7c2d12'],
      [0.55, '#292524'],
      [1, '#1c1917'],
    ]) +
      defs('floor', [
        [0, '#292524'],
        [1, '#0c0a09'],
      ]) +
      glow('g', '#fdba74', 0.4),
  );
}

function communityMoments() {
  const colors = ['#fb923c', '#fde68a', '#f8fafc', '#fdba74', '#fda4af'];
  const xs = [150, 275, 400, 525, 650];
  const heights = [0, 18, -8, 12, 4];
  const people = xs
    .map((x, i) => {
      const top = 190 + (heights[i] ?? 0);
      const pose: Pose = {
        head: [x, top],
        neck: [x, top + 40],
        hip: [x, top + 150],
        arms: [
          [
            [x, top + 46],
            [x - 46, top - 4],
            [x - 62, top - 64],
          ],
          [
            [x, top + 46],
            [x + 46, top - 4],
            [x + 62, top - 64],
          ],
        ],
        legs: [
          [
            [x, top + 150],
            [x - 22, top + 220],
            [x - 30, 480],
          ],
          [
            [x, top + 150],
            [x + 22, top + 220],
            [x + 30, 480],
          ],
        ],
      };
      return figure(pose, colors[i] ?? '#fff', 24);
    })
    .join('');
  const bokeh = [
    [90, 90, 60],
    [300, 60, 40],
    [520, 110, 70],
    [720, 70, 50],
    [660, 260, 36],
    [60, 300, 44],
  ]
    .map(
      ([x, y, r], i) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${i % 2 ? '#fb923c' : '#fde68a'}" opacity="0.22" filter="url(#soft)"/>`,
    )
    .join('');
  const confetti = Array.from({ length: 26 }, (_, i) => {
    const x = (i * 137) % 780;
    const y = 30 + ((i * 71) % 200);
    return `<rect x="${x}" y="${y}" width="10" height="4" rx="2" fill="${colors[i % 5]}" transform="rotate(${(i * 47) % 180} ${x} ${y})" opacity="0.8"/>`;
  }).join('');
  return svg(
    800,
    600,
    `<rect width="800" height="600" fill="url(#bg)"/>${bokeh}<circle cx="400" cy="300" r="380" fill="url(#g)"/>${confetti}
     <rect y="485" width="800" height="115" fill="#0b1020"/><ellipse cx="400" cy="490" rx="330" ry="10" fill="#000" opacity="0.4"/>${people}`,
    defs('bg', [
      [0, '#312e81'],
      [1, '#0f172a'],
    ]) + glow('g', '#f97316', 0.28),
  );
}

function outdoorExperiences() {
  const runner: Pose = {
    head: [420, 318],
    neck: [412, 350],
    hip: [392, 438],
    arms: [
      [
        [412, 356],
        [446, 388],
        [480, 370],
      ],
      [
        [412, 356],
        [376, 392],
        [350, 426],
      ],
    ],
    legs: [
      [
        [392, 438],
        [440, 470],
        [430, 520],
      ],
      [
        [392, 438],
        [356, 478],
        [312, 478],
      ],
    ],
  };
  const tree = (x: number, y: number, s: number) =>
    `<rect x="${x - 3 * s}" y="${y - 10 * s}" width="${6 * s}" height="${14 * s}" fill="#1c1917"/><circle cx="${x}" cy="${y - 22 * s}" r="${16 * s}" fill="#1c1917"/>`;
  return svg(
    800,
    600,
    `<rect width="800" height="600" fill="url(#sky)"/><circle cx="560" cy="300" r="170" fill="url(#g)"/><circle cx="560" cy="300" r="78" fill="#fff7ed" opacity="0.95"/>
     <path d="M0 360 Q160 290 320 340 T640 320 T800 330 V600 H0Z" fill="#c2410c" opacity="0.55"/>
     <path d="M0 410 Q200 350 420 400 T800 380 V600 H0Z" fill="#7c2d12" opacity="0.85"/>
     ${tree(90, 392, 1.6)}${tree(140, 388, 1.2)}${tree(700, 386, 1.5)}${tree(745, 392, 1.1)}
     <path d="M0 470 Q260 430 520 480 T800 460 V600 H0Z" fill="#292524"/>
     <path d="M250 600 Q360 520 520 500 L560 504 Q420 540 380 600Z" fill="#57534e" opacity="0.7"/>
     ${figure(runner, '#0c0a09', 24)}`,
    defs('sky', [
      [0, '#fde68a'],
      [0.45, '#fb923c'],
      [1, '#9a3412'],
    ]) + glow('g', '#fff7ed', 0.7),
  );
}

function femaleSessions() {
  const swing: Pose = {
    head: [300, 214],
    neck: [300, 252],
    hip: [296, 364],
    arms: [
      [
        [300, 258],
        [360, 262],
        [416, 256],
      ],
    ],
    legs: [
      [
        [296, 364],
        [268, 424],
        [256, 484],
      ],
      [
        [296, 364],
        [326, 424],
        [340, 484],
      ],
    ],
  };
  const ponytail = (x: number, y: number, c: string) => `<path d="M${x - 14} ${y - 12} q-34 6 -40 44 q20 -18 36 -20z" fill="${c}"/>`;
  const tree: Pose = {
    head: [580, 170],
    neck: [580, 208],
    hip: [580, 330],
    arms: [
      [
        [580, 214],
        [532, 166],
        [570, 104],
      ],
      [
        [580, 214],
        [628, 166],
        [590, 104],
      ],
    ],
    legs: [
      [
        [580, 330],
        [580, 410],
        [580, 484],
      ],
      [
        [580, 330],
        [636, 378],
        [586, 404],
      ],
    ],
  };
  const kettlebell = `<path d="M414 236 q12 -26 30 0" fill="none" stroke="#0f172a" stroke-width="9" stroke-linecap="round"/><circle cx="429" cy="262" r="24" fill="#0f172a" stroke="#f9a8d4" stroke-width="3"/>`;
  return svg(
    800,
    600,
    `<rect width="800" height="600" fill="url(#bg)"/><circle cx="560" cy="140" r="420" fill="url(#g)"/>
     <rect y="484" width="800" height="116" fill="#1e1b4b"/><rect x="470" y="482" width="230" height="10" rx="5" fill="#f472b6" opacity="0.8"/>
     <ellipse cx="300" cy="490" rx="90" ry="8" fill="#000" opacity="0.35"/>
     ${ponytail(300, 214, '#fdf2f8')}${figure(swing, '#fdf2f8')}${kettlebell}${ponytail(580, 170, '#f9a8d4')}${figure(tree, '#f9a8d4')}`,
    defs(
      'bg',
      [
        [0, '#9d174d'],
        [0.6, '#3b0764'],
        [1, '#1e1b4b'],
      ],
      1,
      1,
    ) + glow('g', '#fbcfe8', 0.35),
  );
}

function coachingInAction() {
  const pushup: Pose = {
    head: [244, 392],
    neck: [280, 404],
    hip: [430, 424],
    arms: [
      [
        [284, 408],
        [290, 448],
        [288, 482],
      ],
    ],
    legs: [
      [
        [430, 424],
        [520, 448],
        [592, 470],
      ],
    ],
  };
  const coach: Pose = {
    head: [650, 214],
    neck: [650, 254],
    hip: [650, 370],
    arms: [
      [
        [650, 260],
        [614, 312],
        [600, 296],
      ],
      [
        [650, 260],
        [690, 320],
        [700, 372],
      ],
    ],
    legs: [
      [
        [650, 370],
        [632, 428],
        [628, 484],
      ],
      [
        [650, 370],
        [670, 428],
        [678, 484],
      ],
    ],
  };
  const clipboard = `<rect x="566" y="266" width="40" height="52" rx="5" fill="#f8fafc" transform="rotate(-12 586 292)"/><rect x="575" y="280" width="22" height="4" fill="#94a3b8" transform="rotate(-12 586 292)"/><rect x="575" y="292" width="18" height="4" fill="#94a3b8" transform="rotate(-12 586 292)"/>`;
  return svg(
    800,
    600,
    `<rect width="800" height="600" fill="url(#bg)"/><circle cx="640" cy="140" r="400" fill="url(#g)"/>
     <rect y="484" width="800" height="116" fill="url(#floor)"/><rect x="200" y="480" width="420" height="12" rx="6" fill="#0ea5e9" opacity="0.65"/>
     <ellipse cx="410" cy="492" rx="220" ry="8" fill="#000" opacity="0.35"/>
     ${figure(pushup, '#f8fafc')}${figure(coach, '#fb923c')}${clipboard}`,
    defs(
      'bg',
      [
        [0, '#0c4a6e'],
        [0.6, '#0f172a'],
        [1, '#020617'],
      ],
      1,
      1,
    ) +
      defs('floor', [
        [0, '#1e293b'],
        [1, '#020617'],
      ]) +
      glow('g', '#f97316', 0.3),
  );
}

function hero() {
  const windows = [180, 520, 860, 1200]
    .map(
      (x) =>
        `<path d="M${x} 560 V230 a100 100 0 0 1 200 0 V560Z" fill="url(#win)"/><path d="M${x + 100} 130 V560 M${x} 360 H${x + 200}" stroke="#1c1917" stroke-width="10"/>
         <polygon points="${x},560 ${x + 200},560 ${x + 340},900 ${x - 60},900" fill="#fed7aa" opacity="0.09" filter="url(#blur)"/>`,
    )
    .join('');
  const boards = Array.from({ length: 17 }, (_, i) => {
    const x = -400 + i * 150;
    return `<line x1="800" y1="560" x2="${x}" y2="900" stroke="#000" stroke-opacity="0.22" stroke-width="3"/>`;
  }).join('');
  const lifter: Pose = {
    head: [1300, 438],
    neck: [1300, 478],
    hip: [1300, 610],
    arms: [
      [
        [1300, 486],
        [1246, 440],
        [1232, 372],
      ],
      [
        [1300, 486],
        [1354, 440],
        [1368, 372],
      ],
    ],
    legs: [
      [
        [1300, 610],
        [1268, 690],
        [1256, 772],
      ],
      [
        [1300, 610],
        [1332, 690],
        [1344, 772],
      ],
    ],
  };
  const bar = `<rect x="1130" y="362" width="340" height="12" rx="6" fill="#0c0a09"/>${plate(1150, 368, 24, 130, '#0c0a09')}${plate(1176, 368, 18, 96, '#0c0a09')}${plate(1426, 368, 24, 130, '#0c0a09')}${plate(1406, 368, 18, 96, '#0c0a09')}`;
  return svg(
    1600,
    900,
    `<rect width="1600" height="900" fill="url(#wall)"/>${windows}
     <rect y="560" width="1600" height="340" fill="url(#floor)"/>${boards}<rect y="556" width="1600" height="8" fill="#0c0a09"/>
     <ellipse cx="1300" cy="780" rx="150" ry="14" fill="#000" opacity="0.55"/>${figure(lifter, '#0c0a09', 34)}${bar}`,
    defs('wall', [
      [0, '#292524'],
      [1, '#0c0a09'],
    ]) +
      defs('win', [
        [0, '#fff7ed'],
        [0.5, '#fdba74'],
        [1, '#ea580c'],
      ]) +
      defs('floor', [
        [0, '#9a3412'],
        [0.35, '#57200b'],
        [1, '#140a05'],
      ]),
  );
}

type Job = { name: string; svg: string; widths: number[] };

const gallery = {
  'weight-training': weightTraining,
  'personal-training': personalTraining,
  'community-moments': communityMoments,
  'outdoor-experiences': outdoorExperiences,
  'female-sessions': femaleSessions,
  'coaching-in-action': coachingInAction,
};

const jobs: Job[] = [
  { name: 'hero', svg: hero(), widths: [1600, 800] },
  ...Object.entries(gallery).map(([name, draw]) => ({ name: `gallery/${name}`, svg: draw(), widths: [960, 480] })),
];

async function main() {
  mkdirSync(`${OUT}gallery`, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const page = await browser.newPage();
  for (const job of jobs) {
    for (const width of job.widths) {
      const dataUrl = await page.evaluate(
        async ({ svgText, width: w, quality }) => {
          const img = new Image();
          img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = w;
          canvas.height = Math.round((img.naturalHeight / img.naturalWidth) * w);
          canvas.getContext('2d')!.drawImage(img, 0, 0, canvas.width, canvas.height);
          return canvas.toDataURL('image/webp', quality);
        },
        { svgText: job.svg, width, quality: 0.8 },
      );
      const bytes = Buffer.from(dataUrl.split(',')[1]!, 'base64');
      const file = `${OUT}${job.name}-${width}.webp`;
      writeFileSync(file, bytes);
      console.log(`${job.name}-${width}.webp ${(bytes.length / 1024).toFixed(1)} KB`);
    }
  }
  await browser.close();
}

await main();
