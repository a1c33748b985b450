const { generateDemoData } = await import('../server/db/seed/generate');
for (let i = 0; i < 5; i++) { const t = performance.now(); generateDemoData(); console.log('gen', Math.round(performance.now() - t)); }
