-- wrk script for the overload run: requests cycle through 12,000 render keys (an icon at many
-- sizes and scales), so nearly every admitted request is a draw, and each thread counts the statuses it got; done() prints
-- them summed ("statuses: 200=…, 503=…").
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function request()
  counter = counter + 1
  -- 500 sizes x 12 scales per thread, each thread its own scales: 12,000 keys, all within the
  -- 4 Mi pixel limit (515 pt at 3.875x is under 2,048 px a side).
  local size = 16 + (counter % 500)
  local scale = 1 + (math.floor(counter / 500) % 12) * 0.25 + id * 0.125
  return wrk.format("GET", "/icons/settings.png?size=" .. size .. "&scale=" .. scale)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do table.insert(parts, status .. "=" .. count) end
  table.sort(parts)
  io.write("statuses: " .. table.concat(parts, ", ") .. "\n")
end
